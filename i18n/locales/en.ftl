# baffle's words in English. Every id here is also in el.ftl (a test checks both ways).
# Ids named after a proto enum value (pause-reason-*, match-phase-*, ...) are checked
# against the proto: one message for every value, none for a value that does not exist.

## The page's frame

app-title = baffle — live
nav-tournaments = All tournaments
language-label = Language
status-connecting = connecting…
status-live = live
status-reconnecting = reconnecting…
status-unreachable = cannot reach the server ({ $error })

## Finding

search-label = Find a player
search-placeholder = A player's name
search-button = Find
search-results = { $count ->
    [0] No match for “{ $query }”.
    [one] One match for “{ $query }”:
   *[other] { $count } matches for “{ $query }”:
  }
tournaments-none = No tournaments yet.
tournament-matches = { $count ->
    [one] one match
   *[other] { $count } matches
  }
tournament-round = round { $round }
tournament-id = code { $id }
view-matches = Matches
view-results = Results
view-wall = Wall
round-label = Round
round-all = all rounds

## A match's card

card-table-round = Table { $table } · round { $round }
state-waiting = waiting for the players
state-checked-in = { $name } checked in
state-ready = ready: both checked in
state-playing = playing
state-between-games = between games
state-over-provisional = over · result provisional
state-over-confirmed = over · result confirmed
match-length = to { $length }
crawford = Crawford
post-crawford = after Crawford
cube-centre = cube { $value } in the middle
cube-owned = cube { $value } · { $name }
# The cube in a line, as a device or the console says it (baffle_i18n::turn::cube).
cube-line = cube { $value }
cube-line-owned = cube { $value } { $name }
paused = paused: { $reason }
# Penalty points a player has received (MatchState.penalty_points): in his favour.
penalty-points = { $points ->
    [one] one penalty point
   *[other] { $points } penalty points
  } to { $name }
warnings = { $name }: { $count ->
    [one] one warning
   *[other] { $count } warnings
  }
result-won = { $name } won · { $how }
result-provisional = provisional
result-confirmed = confirmed
pips = pips { $a } – { $b }
clock-of = { $name }'s clock
score-of = score { $a } – { $b }

## Proto enums (checked against the proto)

pause-reason-game-over = game over
pause-reason-break = break
pause-reason-director-called = director called
pause-reason-director-stopped = stopped by the director
pause-reason-dice-picked-up-early = dice picked up early
pause-reason-illegal-move-replay = illegal move to replay
pause-reason-result-settled = result settled?
pause-reason-invalid-roll = invalid roll
pause-reason-roll-disputed = roll disputed
pause-reason-awaiting-links = waiting for the players' links (live dice)
match-phase-waiting = waiting
match-phase-playing = playing
match-phase-between-games = between games
match-phase-over = over
turn-phase-opening = opening roll
turn-phase-on-roll = { $name } to roll
turn-phase-moving = { $name } to move { $dice }
turn-phase-double-offered = { $name } doubled
# Said of a double in a line (baffle_i18n::turn): who is to answer it too.
turn-double-offered = { $name } doubled: { $other } to take or pass

## Short forms, for the console's table cells

turn-short-opening = opening
turn-short-on-roll = { $name } roll
turn-short-moving = { $name } move
turn-short-double-offered = { $name } doubled
turn-short-over = over
# No turn to show: before the first game, between games.
turn-short-none = -
turn-match-over = match over
match-end-kind-points = on points
match-end-kind-timeout = on time
match-end-kind-penalty-points = on penalty points
match-end-kind-forfeit = by forfeit
match-end-kind-director-decision = by the director's decision
match-end-kind-draw = drawn
match-end-kind-double-default = both lost by default
win-kind-single = single
win-kind-gammon = gammon
win-kind-backgammon = backgammon
chess-outcome-white-wins = 1-0
chess-outcome-black-wins = 0-1
chess-outcome-draw = ½-½
chess-outcome-both-lose = 0-0
chess-reason-checkmate = checkmate
chess-reason-resignation = resignation
chess-reason-flag = flag fell
chess-reason-flag-insufficient-material = flag fell, insufficient material
chess-reason-agreement = agreed
chess-reason-arbiter-decision = arbiter's decision
chess-reason-default = by default
chess-reason-illegal-moves = illegal moves
chess-reason-both-flags = both flags fell
chess-reason-quickplay-finish = quickplay finish

## Chess

chess-game-of = game { $game } of { $games } · { $category }
# ChessState.category, a string: "standard", "rapid" or "blitz".
chess-category = { $category ->
    [standard] standard
    [rapid] rapid
    [blitz] blitz
   *[other] { $category }
  }
chess-white = White: { $name }
chess-to-move = { $name } to move
chess-960 = 960 #{ $sp } { $rank }
chess-quickplay-postponed = quickplay claim: decision postponed
chess-match-drawn = match drawn
chess-both-lost-default = both lost by default
chess-game-result = game { $game }: { $result }
chess-moves = moves { $count }
color-white = White
color-black = Black

## The live view's events

event-checked-in = { $name } checked in
event-lateness-point = { $name } is late: a penalty point to { $other }
event-break-started = { $name } takes a break until { $until }
event-break-ended = the break is over
event-game-started = { $crawford ->
    [yes] game { $number } began (Crawford)
   *[no] game { $number } began
  }
event-opening-throw = opening throw: { $nameA } { $a }, { $nameB } { $b }
event-rolled = { $name } rolled { $dice }
event-roll-invalid = { $name }'s roll was invalid
event-doubled = { $name } doubled to { $value }
event-taken = { $name } took
event-passed = { $name } passed
event-pressed-back = { $name } could not move
event-requested-clock = { $name } asked for a clock
event-requested-observer = { $name } asked for an observer
event-appealed = { $name } appealed ruling { $ruling }
event-pressed = { $name } pressed the clock
event-moved = { $name } played { $play }
event-game-ended = { $name } won the game: { $points ->
    [one] one point
   *[other] { $points } points
  } ({ $kind })
event-paused = clock stopped: { $reason }
event-resumed = clock restarted
event-delay-restarted = the delay restarted
event-wait-out-delay = { $name } must wait out the delay
event-turn-replayed = { $name } replays an illegal move
event-time-expired = { $name }'s time ran out
event-ruling = ruling, { $rule }: { $action }
event-length-corrected = match length corrected to { $length }
event-length-kept = match length kept
event-match-ended = { $name } won the match { $how }
event-match-undecided = both won at once: the director decides
event-match-resumed = the match goes on
event-seed-committed = { $name } committed a seed
event-seed-revealed = { $name } revealed a seed
event-dice-revealed = the dice seed was revealed
event-reveal-due = the seeds are to be revealed by { $time }
event-reveal-extended = ruling, { $rule }: the seeds' reveal extended to { $time }
event-links-due = the links are now due by { $time }: { $reason }
event-renamed = name corrected: { $was } → { $name }
event-restart = the server was down { $down }: { $credit } given back to { $name }'s clock
event-restart-partial = the server was down { $down }: { $name }'s clock lost { $charged }, { $credit } given back; the director rules on the rest
# The time of a record the log keeps no time for, seen after one that has it.
event-after = after { $time }
event-chess-arrived = { $color } arrived
event-chess-started = the game began
event-chess-pressed = { $color } pressed the clock
event-chess-flag = { $color }'s flag fell
event-chess-paused = clock stopped by the arbiter
event-chess-resumed = clock restarted
event-chess-move = { $color } moved
event-chess-illegal-move = illegal move by { $color }
event-chess-quickplay-claim = { $color } claims a draw (quickplay finish)
event-chess-ended = game over: { $result }
event-chess-ruling = arbiter's decision, { $rule }
event-chess-next-game = game { $game } is next
ruling-warning = a warning to { $name }
ruling-award-points = { $points ->
    [one] one penalty point
   *[other] { $points } penalty points
  } to { $name }
ruling-other = the director's decision
ruling-deduct-points = { $points ->
    [one] one point
   *[other] { $points } points
  } deducted from { $name }
ruling-correct-score = score corrected
ruling-correct-result = game { $game } corrected: { $name } won it
ruling-adjust-time = { $name }'s clock { $delta }
ruling-set-time = { $name }'s clock set
ruling-confirm = result confirmed
ruling-forfeit-match = { $name } forfeits the match
ruling-reschedule = the match's start moved to { $time }
ruling-postpone = the match put off until its start is set
# An action and what it changed: the score (A–B) or a clock, before → after.
ruling-effect = { $action }: { $before } → { $after }
ruling-effect-unchanged = { $action } at { $value }

## The regulations, by their own numbering

rule-backgammon = art. { $article } of the regulations
rule-chess = art. { $article } of the FIDE Laws
refusal = Refused: { $message } ({ $rule })

## Results

results-title = Results · round { $round }
results-table = Table
results-players = Players
results-score = Score
results-winner = Winner
results-status = Result
results-none = No matches in this round.

## Wall

wall-title = { $name } · round { $round }

## Dice

dice-line = dice committed: { $commitment }… · head { $head } · { $verdict }
dice-after-match = checked after the match
head-checking = checking the server's signature on this head…
head-signed = head signed by { $key }, checked in this browser and kept
head-signed-unchecked = head signed by { $key } (this browser cannot check the signature)
head-signature-bad = the server's signature on this head does not check: do not trust it
head-unsigned = this server does not sign its heads
head-two-histories = head signed by { $key }, but this browser kept another head the server signed at the same point: the server signed two histories
dice-checking = checking the dice…
dice-verified = { $count ->
    [0] no rolls to verify
    [one] the one roll verified in this browser
   *[other] all { $count } rolls verified in this browser
  }
dice-not-verified = NOT VERIFIED: { $why }
dice-why-end = the end line does not match the log
dice-why-chain = record { $seq }: the chain is broken
dice-why-cut = the log is cut short
dice-why-commitment = the revealed seed does not match the commitment
dice-why-draw = record { $seq }: { $claimed } is not what the seed gives ({ $expected })
dice-why-construction = the log names dice construction { $construction }, which this page does not know
dice-why-place = record { $seq }: the draw is not at its place (its game and roll are not this page's count)
dice-why-player-seed = record { $seq }: the revealed seed and salt do not match the player's commitment
dice-why-clear-seed = record { $seq }: a seed in the clear, which construction 2 refuses
dice-why-link = record { $seq }: the link does not hash to the last value of that player's chain
live-anchor = your chain: { $anchor }… (this browser checks the log holds it)
dice-why-anchor = record { $seq }: that is not the chain this browser committed for its player: not the log of his match
dice-why-links = record { $seq }: a live draw without both players' links
# Live dice (issue 35): a player's own chain and controls on the match's page.
live-chain = { $name }: chain committed, { $left } links left
live-no-chain = { $name }: no chain yet
live-start = play with live dice
live-started = chain committed for { $side }
live-failed = live dice: { $error }
live-mine = this phone plays { $name }'s side and gives that player's links by itself
live-waiting = the dice wait for { $names }'s link
live-roll = Roll (also the opening)
live-double = Double
live-take = Take
live-pass = Pass
live-press = Press the clock
seed-none = { $name }: no seed
seed-none-required = { $name }: no seed yet (required)
seed-committed = { $name }: seed committed { $short }…
seed-revealed = { $name }: seed revealed { $short }…
seed-code = your player code
seed-add = add my seed
seed-added = seed committed for { $side }
seed-failed = no seed: { $error }
seed-reveal-due = not revealed yet: { $names } · due { $time }
seed-reveal-overdue = not revealed yet: { $names } · overdue: the director rules

## The page: rounds, the board, its words (issue 31). The page's alone.

# A tournament's list, a heading per round (latest first).
page-round-heading = Round { $round }
# The results' round picker.
page-rounds = Rounds
page-round-link = round { $round }
# The cube in the middle is drawn as a real one is, 64 up; it is worth 1.
page-cube-centre = cube in the middle · 64 up, worth { $value }
page-pips = pips { $a } { $pa } · { $b } { $pb }
page-board-label = the board seen by { $name }
page-board-turn = seen by { $name }: turn the board
page-board-off = { $count } off
page-board-cube = the cube: { $value }
page-dice-label = the dice: { $dice }
page-legend-a = { $name }: white checkers
page-legend-b = { $name }: red checkers
page-download = download .{ $format }

## The page: a tournament's draw (draw.js), on the phone, the wall and paper. The page's alone.

draw-view = Draw
draw-wall = Draw on the wall
draw-title = { $name } · draw
draw-none = This tournament has no draw.
draw-flight-main = Main draw
draw-flight-consolation = Consolation
draw-flight-last-chance = Last chance
draw-final = Final
draw-semi-finals = Semi-finals
draw-quarter-finals = Quarter-finals
draw-champion = winner: { $name }
draw-bye = bye
draw-byes = Byes: { $names }
draw-table = table { $table }
draw-playing = playing
draw-unplayed = not played
draw-drawn = drawn
draw-pairings = Pairings · round { $round }
draw-standings = Standings
draw-col-place = Place
draw-col-name = Player
draw-col-played = Played
draw-col-won-lost = W–L
draw-col-score = Score
draw-col-buchholz = Buchholz
draw-col-sb = SB
draw-col-match = Match
draw-search-label = A player's path in the draw
draw-search-placeholder = Find a player: part of a name
draw-search-none = Nobody in the draw is called “{ $query }”.
draw-path-won = won { $score } against { $name }
draw-path-lost = lost { $score } to { $name }
draw-path-drawn = drew { $score } with { $name }
draw-path-playing = playing { $name } at table { $table }
draw-path-waiting = waiting to play { $name }
draw-path-bye = a bye: on to the next round without a match
draw-proof-title = The draw's proof
draw-proof-commitment = Commitment (SHA-256 of the draw seed, published before the draw): { $commitment }
draw-proof-seed = Seed revealed with the draw: { $seed }
draw-proof-seed-hidden = Seed: revealed when the draw is made.
draw-proof-log = The tournament's log: { $length } records, head { $head }
draw-proof-verify = Anyone can recompute the draw from the exported log: baffle draw verify.
draw-proof-download = download the log
draw-print-draw = Print the draw
draw-print-scoresheets = Print scoresheets
draw-print-results = Print results
print-button = Print
print-title-draw = { $name } — draw sheet
print-title-scoresheets = { $name } — scoresheets
print-title-results = { $name } — results
print-decided = Decided matches
print-decided-none = No match decided yet.
print-placing = { $place }. { $name }
sheet-match = Match
sheet-table = Table
sheet-length = Length
sheet-points = { $length } points
sheet-start = Start
sheet-game = Game
sheet-points-a = Points { $a }
sheet-points-b = Points { $b }
sheet-score-a = Score { $a }
sheet-score-b = Score { $b }
sheet-cube = Cube
sheet-winner = Winner: ______________________   Final score: ______ – ______
sheet-director = Tournament director
sheet-signature = Signature: { $name }

## The console and the command line (`baffle`): short words for table cells and lines

match-status-waiting = waiting
match-status-present = present
match-status-ready = ready
match-status-playing = playing
match-status-between-games = between games
match-status-over = over
match-status-confirmed = confirmed
match-status-undecided = undecided
console-status-paused = paused
match-status-postponed = put off
console-col-table = TBL
console-col-round = RND
console-col-match = MATCH
console-col-players = PLAYERS
console-col-score = SCORE
console-col-status = STATUS
console-col-clock-a = CLOCK A/W
console-col-clock-b = CLOCK B/B
console-col-turn = TURN
console-col-device = DEV
console-col-note = WINNER / PAUSE
console-versus = { $a } v { $b }
console-device-on = on
console-device-off = off
console-flag = FLAG
console-turn-white = W move
console-turn-black = B move
console-turn-game-over = game over
console-note-drawn = drawn
console-note-both-lost = both lost (6.7)
console-note-winner = { $name } ({ $how })
console-title = baffle console — { $tournament }
console-title-filtered = baffle console — { $tournament } — only “{ $filter }” (Esc: all)
# The live feeds (console, follow) when the connection fails; they try again by themselves.
feed-unreachable = cannot reach the server at { $server } ({ $why }) — reconnecting
feed-lost = the connection was lost ({ $why }) — reconnecting
feed-retrying = { $why } — reconnecting
feed-closed = the server closed the feed — reconnecting
console-todo-none = nothing to do
console-todo-title = to do ({ $count })
console-ticker-title = what happened
console-help-title = keys
console-help =
    ↑↓ j k  select a match
    Enter   the selected match in full (any key closes it)
    /       only matches whose id, table or players contain a text
    Esc     all matches again
    p       pause the clock: press the reason's number (chess: stop, 6.12)
    r       resume the clock (chess: restart the clocks)
    i       check a player in (chess: at the board)
    w       a warning to a player
    x       penalty points to a player
    a       adjust a clock, e.g. A -30s (chess: set a clock, W 5m)
    s       correct the score, e.g. 3 2
    f       the match forfeited by a player
    e       more time for a player's seed (the reveal deadline)
    c       confirm the result
    d       dismiss the selected match's dice anomalies and press-back claims
    q       quit            (every action asks y/n before it is sent)
    Ctrl-C  cancel the question, or quit: it never answers one
console-hint = ↑↓ select  Enter open  / filter  p pause  r resume  c confirm  ? keys  q quit
console-hint-chess = ↑↓ select  Enter open  / filter  p stop  r restart  a set clock  ? keys  q quit
console-confirm = { $action }? y/n
console-prompt-filter = show matches containing
console-prompt-chess-clock = set a clock, clocks stopped: colour and time, e.g. W 5m
console-prompt-chess-arrive = at the board: W or B
console-pause-title = pause: press the reason's number
console-prompt-pause = pause, press the reason's number: { $choices }
console-prompt-score = correct the score: { $a }'s points, a space, { $b }'s, e.g. 3 2
console-ask-adjust = adjust the clock of { $a } (A) or { $b } (B), e.g. A -30s
console-ask-points = penalty points to { $a } (A) or { $b } (B), e.g. B 1
console-ask-check-in = check in { $a } (A) or { $b } (B), e.g. A
console-ask-warn = a warning to { $a } (A) or { $b } (B), e.g. B
console-ask-forfeit = the match forfeited by { $a } (A) or { $b } (B), e.g. B
console-not-in-chess = not in chess: use `baffle chess MATCH …` for the arbiter's rulings
console-no-match = no match selected
console-bad-side = “{ $text }” is not a side: A or B, a space, then the value
console-bad-colour = “{ $text }” is not a colour: W or B
console-bad-score = “{ $text }”: two numbers, A's points then B's, e.g. 3 2
console-bad-reason = “{ $text }”: a number from 1 to { $count }
console-bad-points = “{ $text }” is not a number of points
console-bad-minutes = “{ $text }” is not a number of minutes
console-in-match = { $action } in { $match }
console-do-stop = stop the clocks (6.12)
console-do-restart = restart the clocks (6.12)
console-do-resume = resume the clock
console-do-confirm = confirm the result
console-do-pause = pause the clock ({ $reason })
console-do-score = correct the score to { $a } { $sa } – { $sb } { $b }
console-do-arrive = { $color } at the board
console-do-adjust = adjust { $name }'s clock by { $by }
console-do-points = { $points ->
    [one] award one penalty point to { $name }
   *[other] award { $points } penalty points to { $name }
  }
console-do-check-in = check in { $name }
console-do-warn = warn { $name }
console-do-forfeit = { $name } forfeits the match
console-do-extend = the seeds due in { $minutes } minutes
console-do-extend-links = the links due in { $minutes } minutes
console-ask-extend = more time for the seed of { $name }: minutes from now, e.g. 10
console-ask-extend-links = more time for the link of { $name }: minutes from now, e.g. 5
console-no-reveal = { $match }: no seed is awaited, there is no deadline to extend
console-no-confirm-open = { $match }: the match is not over: there is no result to confirm (4.6)
console-no-confirm-done = { $match }: the result is confirmed already (4.6)
console-do-set-clock = set { $color }'s clock to { $time }
console-at-table = { $match } (table { $table })
console-todo-confirm = { $at }: { $name } won ({ $how }) — confirm the result: c
console-todo-confirm-nobody = { $at }: the match is over ({ $how }) — confirm the result: c
console-todo-flag = { $at }: { $name }'s flag fell — rule on it
console-todo-outage = { $at }: { $name } lost { $time } to the server's outage — rule on it: a (adjust the clock)
console-todo-undecided = { $at }: both players won at the same instant (2.2) — decide the match: baffle rule … decide-match A|B
console-todo-offline = { $at }: OFFLINE, its log did not check out ({ $reason }) — restore the data directory from a backup (docs/reliability.md)
console-todo-appeals = { $at }: { $count ->
    [one] one appeal waiting for the committee (5)
   *[other] { $count } appeals waiting for the committee (5)
  }
console-todo-anomalies = { $said } — d to dismiss
console-todo-anomalies-many = { $said } ({ $count } warnings) — d to dismiss
console-todo-reveal-pending = { $at }: waiting for { $name }'s seed, due { $due } — no die is drawn until then
console-todo-reveal-overdue = { $at }: { $name } has not revealed his seed: due { $due } — extend: e, or rule a forfeit: f
console-todo-link-pending = { $at }: waiting for { $name }'s link (live dice), due { $due } — nothing is played until it is given
console-todo-link-overdue = { $at }: { $name }'s link has not come (live dice): due { $due } — { $name } forfeits the match unless you extend: e
console-todo-links-overdue = { $at }: { $name }'s link has not come (live dice): due { $due } — neither player gave his link, so nobody forfeits by himself: extend: e, or rule
console-todo-press-back = { $at }: { $name } pressed back, claiming he is closed out (4.2 (i)) — check the board; d to dismiss
console-tick-press-back = { $match }: { $name } pressed back, claiming he is closed out (4.2 (i)): check the board
console-anomaly = { $match }: { $name }'s dice look wrong: { $what }
console-anomaly-nobody = { $match }: the dice look wrong: { $what }
console-tick-flag = { $match }: { $name }'s flag fell
console-tick-penalty = { $match }: penalty point to { $name } ({ $total } in all)
console-tick-device-on = { $match }: device { $device } connected
console-tick-device-off = { $match }: device { $device } disconnected
console-tick-paused = { $match }: clock paused ({ $reason })
console-tick-status = { $match }: now { $status }
console-tick-renamed = { $match }: player { $side } renamed: { $old } → { $new }
console-tick-warning = { $match }: warning to { $name } ({ $total } in all)
console-tick-sent = sent: { $action }
console-tick-cancelled = not sent: { $action }
console-tick-refused = refused: { $why }
console-line = { $match }  round { $round }  table { $table }  { $status }  { $score }
console-offline-line = { $match } round { $round } table { $table }: OFFLINE — { $reason }
event-dice-drawn = server dice for { $name }: { $dice }
event-dice-opening = server dice for the opening roll
event-dice-chain = { $name } committed a live dice chain
event-dice-asked = live dice: { $name }'s roll asked for, waiting for both links
event-dice-asked-opening = live dice: the opening roll asked for, waiting for both links
event-dice-link = live dice: { $name } gave a link
event-dice-anomaly = the dice watch raised an anomaly
event-other = { $kind }

## `baffle match show` and `match list`

cli-col-match = MATCH
cli-col-round = ROUND
cli-col-table = TABLE
cli-col-score = SCORE
cli-col-status = STATUS
cli-col-winner = WINNER
cli-refused = refused ({ $code }): { $message }
cli-unreachable = the server is unreachable: { $why }
cli-tournament-created = created tournament { $id }
cli-tournament-where = venue { $venue }  days { $days }
cli-hint-unauthenticated = pass --token or set BAFFLE_TOKEN; the director token is in <data-dir>/director.token
cli-hint-permission-denied = use the director token, or a device bound to this match
cli-hint-not-found = check the id with `baffle match list --all`
cli-hint-aborted = the match moved on: look at `baffle match show` and retry
cli-hint-failed-precondition = the rules refuse this now: look at `baffle match show MATCH`; a ruling of yours (`baffle rule MATCH --reason … --article …`) may be what it takes
cli-hint-invalid-argument = check the command with --help
cli-hint-resource-exhausted = slow down and retry
cli-hint-already-exists = choose another id
cli-hint-other = try again; if it persists, check the server's log
cli-hint-not-found-tournament = check the id with `baffle tournament list --all`
cli-hint-not-found-device = register it with `baffle device register ID` (`baffle device list` shows the devices bound to matches)
cli-hint-match-id-taken = match ids are shared by every tournament: choose one with --id, e.g. --id { $example }
cli-hint-match-id-default-taken = match ids are shared by every tournament, and the default r<round>-t<table> is taken: choose one with --id, e.g. --id { $example }
cli-winner-nobody = nobody (6.7)
cli-match-head = { $match }  { $tournament }  round { $round }  table { $table }  { $status }
cli-match-replaced = replaced by match { $by } (ruling: { $ruling }): its log is kept; it takes no more commands and records nothing more
cli-status-replaced = replaced by { $by }
cli-score = score  { $score }
cli-crawford = CRAWFORD
cli-game = game { $number }  { $cube }  { $turn }
cli-adjudication-certain = board  { $side } wins whatever the dice (4.3 (iv))
cli-adjudication-most-single = board  { $side } can win a single game at most (4.5)
cli-adjudication-most-gammon = board  { $side } can win a gammon at most (4.5)
cli-adjudication-most-backgammon = board  { $side } can still win a backgammon (4.5)
cli-clock = clock  { $a }  { $b }  running { $running }
cli-clock-paused = paused: { $reason }
cli-result-drawn = result drawn
cli-result-drawn-provisional = result drawn?
cli-result-both-lost = result both lost by default (6.7)
cli-result-won = result { $name } won ({ $how }), confirmed
cli-result-won-provisional = result { $name } won ({ $how }), awaiting the director's confirmation
cli-dice-anomalies = dice   { $count ->
    [one] one anomaly
   *[other] { $count } anomalies
  }, the last: { $last }
cli-device-connected = device { $device } connected
cli-device-not-connected = device { $device } not connected
cli-log = log    { $count } events, head { $head }
cli-reveal-pending = dice   waiting for { $name }'s seed (due { $due }): no die is drawn until it is revealed
cli-live-waiting = dice   { $draw } waits for the link of { $names } (due { $due })
cli-live-overdue = dice   { $draw } waits for the link of { $names }: OVERDUE since { $due }, the director rules — extend: baffle rule { $match } --reason … --article 2.3 extend-reveal MINUTES, or forfeit a player (2.3)
live-draw-roll = { $name }'s roll
live-draw-opening = the opening roll
live-joined = chain committed for { $match } as { $side } ({ $length } links), kept in { $file }: keep that file secret until the match is over
live-verify-hint = after the match, check that its log holds your chain: baffle audit export { $match } -o log.jsonl && baffle audit verify log.jsonl --require-reveal --player-commit { $side }={ $anchor }
live-resumed = your chain for { $match } is already committed ({ $left } links left): resuming with { $file }
live-chain-mismatch = the chain in { $file } is not the one the server holds for { $side }: your links would be refused
live-file-other-match = { $file } is the chain of match { $match }, side { $side }: give another --chain-file
live-file-other-server = { $file } was made for another dice commitment of this match: give another --chain-file
live-not-live = match { $match } does not play live dice
live-no-chain-file = no chain in { $file }: run `baffle live join { $match } --code …` first
live-no-link = no link left to give in { $file }: run `baffle live join` again for a new chain
live-link-given = link { $index } given
live-done = done
live-commands = commands: roll, opening, double, take, pass, press, move PLAY (e.g. move 8/3 6/3), show, quit
cli-reveal-overdue = dice   { $name } has not revealed his seed: due { $due } — extend: baffle rule { $match } --reason … --article … extend-reveal MINUTES, or rule a forfeit (2.3): baffle rule { $match } --reason … --article 2.3 forfeit-match { $side }
cli-dice-verified = dice   verified: { $count ->
    [one] the one server draw recomputed
   *[other] all { $count } server draws recomputed
  } from the revealed seed
cli-dice-not-verified = dice   NOT VERIFIED: { $why }
cli-dice-unreadable = dice   not checked: the log could not be read ({ $why })
cli-dice-revealed = dice   seed revealed: baffle audit export { $match } | baffle audit verify - recomputes every draw
cli-reveal-extended = the reveals are now due by { $due } (the log has { $count } events)
cli-links-extended = the links are now due by { $due } (the log has { $count } events)
cli-col-id = ID
cli-col-name = NAME
cli-archived = (archived)
cli-tournament-archived = tournament { $id } archived: left out of the listings (--all shows it), its matches still followable and verifiable
cli-tournament-unarchived = tournament { $id } is back in the listings
cli-tournament-already-archived = tournament { $id } is already archived: nothing changed
cli-tournament-already-listed = tournament { $id } is already listed: nothing changed

## `baffle follow`: the scoreboard of one match

follow-match-to = match to { $length }
follow-crawford-game = CRAWFORD GAME
follow-delay = delay { $time }
follow-moves-period = moves { $moves }   period { $period }
follow-no-clock = no clock
follow-game = game { $number }   { $cube }   { $turn }
follow-drawn-confirmed = the match is drawn (confirmed)
follow-drawn-provisional = the match is drawn (to confirm)
follow-both-lost = both lost by default (6.7)
follow-won-confirmed = { $name } wins the match ({ $how }, confirmed)
follow-won-provisional = { $name } wins the match ({ $how }, awaiting the director's confirmation)
follow-dice-committed = dice committed: { $commitment }…
follow-seed-revealed = { $name } revealed
follow-seed-committed = { $name } committed { $short }…
follow-seed-to-give = { $name } to give one
follow-seeds = seeds: { $list }
follow-dice-waiting = waiting for { $name }'s seed (due { $due })
follow-dice-checking = seed revealed: checking the dice…
follow-dice-verified = dice verified: { $count ->
    [one] the one server draw
   *[other] all { $count } server draws
  } recomputed here
follow-dice-not-verified = dice NOT VERIFIED: { $why }
follow-dice-unreadable = dice not checked: the log could not be read ({ $why })
follow-footer = event { $seq }  head { $head }   q: quit
follow-title = baffle follow
follow-chess-to-move = { $name } ({ $color }) to move
follow-chess-not-started = not started
follow-chess-quickplay-claim = quickplay claim by { $color }
follow-chess-illegal-moves = illegal moves: White { $white }, Black { $black }
follow-chess-game-result = game { $game } ({ $name } White): { $result }

## The console's rulings worded by the director, and answers he types again (issue 31)
console-ask-reason = { $action }: the reason for the ruling
console-ask-article = article of the regulations (Enter: { $usual })
console-no-reason = a ruling needs a reason: type it
console-with-grounds = { $action } (art. { $article }: { $reason })
cli-hint-look-up = `baffle match show MATCH` lists the games with their numbers, the penalty points, warnings and who is present
cli-hint-check-in = a player is not checked in: `baffle play MATCH check-in A` (or B) when he sits down
cli-hint-play-order = the game is not at that point: `baffle match show MATCH` says whose turn it is and what the game waits for
cli-hint-refused-now = the rules refuse this now: `baffle match show MATCH` shows the match as it stands
cli-no-side-to-act = nobody is to do that in { $match } now: name the side (A or B)
cli-side-with-request-id = with --request-id, name the side (A or B): one found from the match's state changes once the command is done, and a retry of it would be another command
cli-roll-while-moving = { $name } is moving in { $match }: a roll now is the other player's early roll (4.1 (v)(a)) — name his side to make it
cli-player-present = present
cli-player-absent = not present
cli-player-record = player { $side }: { $name }, { $presence }; penalty points { $penalty }, warnings { $warnings }
cli-games = games (the numbers `rule … correct-result GAME` takes):
cli-games-none = games: none finished yet
cli-cannot-reach = cannot reach the server at { $server }: { $why }
cli-unreachable-hint = is `baffled` running there? (README: "Set-up"), or pass --server URL
cli-unreachable-hint-tls = is it running, and is its certificate trusted? one from a private CA needs --ca-cert FILE
cli-lateness-counts = note: lateness counts from the match's start (2.2): a player not checked in by { $time } gets the first penalty point. A later round: create it with --start-in (e.g. --start-in 2h), or check the players in when they sit down.
cli-outage = { $name } lost { $time } to the server's outage, not given back: rule on it (baffle rule { $match } --reason "…" --article "4.3 (v)" adjust-time { $letter } +{ $time })
cli-game-line = { $number }. { $name } won { $points ->
    [one] 1 point
   *[other] { $points } points
  } ({ $kind }, cube { $cube })
cli-win-kind-single = single
cli-win-kind-gammon = gammon
cli-win-kind-backgammon = backgammon
event-match-opened = the match was opened
event-match-setup = the match was set up
event-device-input = an input from device { $device }
event-device-input-refused = an input from device { $device }, refused: { $why }

## A tournament's day from the command line: `baffle player`, `draw`, `round`, `pairing`, `standings`

cli-hint-draw = look at `baffle draw show { $id }`
cli-hint-draw-open = open its draw first: `baffle draw open { $id } --format … --length … --tables …`
cli-draw-bad-tables = --tables: a range such as 1-8, a list such as 1,2,5, or both (1-4,7), not “{ $text }”
cli-draw-bad-numbers = player numbers separated by commas, such as 3,1,7, not “{ $text }”
cli-draw-bad-rating = a rating is a number of points with at most two decimals, such as 1523.47, not “{ $text }”
cli-draw-bad-experience = the experience is a whole number, not “{ $text }”
cli-draw-bad-score = a score is player A's points, a dash, player B's: 7-3, not “{ $text }”
cli-draw-bad-time = a time is HH:MM today (UTC) or an RFC 3339 time such as 2026-05-02T10:00:00+03:00, not “{ $text }”
cli-import-unreadable = the CSV file cannot be read: { $why }
cli-import-no-name = the first row must name the columns, and one of them must be “name” (the others: federation_id, club, rating, experience, player_id)
cli-import-unknown-column = unknown column “{ $column }”: the columns are name, federation_id, club, rating, experience, player_id
cli-import-bad-line = line { $line }: { $why }
cli-import-duplicate = “{ $name }” is already on line { $first } (names are compared ignoring case and spaces): nothing was registered
cli-import-already-entered = “{ $name }” is already entered in this tournament (`baffle player list`): nothing was registered
cli-import-empty = the file has no player under its header row
cli-file-unreadable = cannot read { $file }: { $why }
cli-file-unwritable = cannot write { $file }: { $why }
cli-flight-main = main draw
cli-flight-consolation = consolation
cli-flight-last-chance = last chance
cli-format-knockout = knockout
cli-format-knockout-consolation = knockout with a consolation
cli-format-knockout-last-chance = knockout with a consolation and a last chance
cli-format-round-robin = { $cycles ->
    [one] round robin
   *[other] double round robin
  }
cli-format-swiss = Swiss of { $rounds } rounds
cli-format-length = matches to { $length }
cli-format-chess = chess
cli-entrant-registered = registered
cli-entrant-approved = approved
cli-entrant-checked-in = checked in
cli-entrant-out = out
cli-pairing-waiting-for-round = round not started
cli-pairing-waiting-for-table = waiting for a table
cli-pairing-postponed = postponed
cli-pairing-playing = playing
cli-pairing-decided = decided
cli-draw-result-won = { $name } won { $a }-{ $b }
cli-draw-result-drawn = drawn { $a }-{ $b }
cli-draw-result-unplayed = not played
cli-draw-head = { $name } ({ $id }): { $plan }; tables { $tables }
cli-draw-commitment = commitment  { $hex }
cli-draw-seed = seed        { $hex } (revealed when the draw was made, { $at })
cli-draw-seed-sealed = seed        sealed until the draw is made
cli-draw-seeds = seeds       { $list }
cli-draw-no-matches = no match yet: register the players, check them in and make the draw (`baffle draw make { $id }`)
cli-draw-round-started = { $flight }, round { $round }: started, matches scheduled at { $at }
cli-draw-round-waiting = { $flight }, round { $round }: not started (`baffle round start`)
cli-draw-bye = { $key }: { $name } (#{ $number }) goes on without a match (bye)
cli-col-key = MATCH
cli-col-player-a = PLAYER A
cli-col-player-b = PLAYER B
cli-col-start = START
cli-col-state = STATE
cli-col-result = RESULT
cli-col-number = NO
cli-col-club = CLUB
cli-col-rating = RATING
cli-col-flight = FLIGHT
cli-col-place = PLACE
cli-col-played = PLAYED
cli-col-won = W
cli-col-lost = L
cli-col-points = SCORE
cli-col-buchholz = BUCHHOLZ
cli-col-sb = SB
cli-col-for = FOR
cli-col-against = AGAINST
cli-players-none = no player is registered in { $id } yet: `baffle player add` or `baffle player import`
cli-players-list-empty = the server's list of players is empty: `baffle player new ID NAME` puts one on it
cli-player-listed = player { $id } is on the server's list: register him in a tournament with `baffle player add TOURNAMENT --listed { $id }`
cli-col-rated-results = RATED
cli-standings-none = { $id } has no standings yet: they come with the first results
cli-standings-still-in = still in
cli-draw-opened = draw of { $id } opened: { $plan }; the draw seed's commitment, published now, is { $commitment }
cli-draw-made = the draw is made with { $count } players; its seed, revealed now, is { $seed }
cli-draw-tables-set = the tables are now { $tables }
cli-draw-exported = { $count } records written to { $file }: check them with `baffle draw verify { $file }`
cli-players-registered = { $count ->
    [one] registered: { $list }
   *[other] { $count } registered: { $list }
  }
cli-players-registered-approved = { $count ->
    [one] registered and approved: { $list }
   *[other] { $count } registered and approved: { $list }
  }
cli-players-approved = approved: { $list }
cli-players-checked-in = checked in: { $list }
cli-players-none-to-approve = nobody is waiting for approval: nothing sent
cli-players-none-to-check-in = nobody approved is waiting to check in: nothing sent
cli-player-out = { $name } (#{ $number }) is out: { $reason }
cli-player-out-playing = { $key } ({ $match }, table { $table }) is being played: settle it at its table (baffle rule { $match } --reason "…" --article 2.2 forfeit-match A|B, then baffle rule { $match } --reason "…" --article 4.6 confirm); his later matches are won by his opponents without play
cli-player-renamed = player #{ $number } is now { $name }
cli-round-started = { $flight }, round { $round } started at { $at }: { $count ->
    [one] one match created
   *[other] { $count } matches created
  }, the others as soon as their players and a table are free
cli-pairing-ruled = { $key }: the ruling is recorded in the tournament's log
cli-pairing-replaced = { $key } is now match { $new }: { $old } is replaced (its log is kept and takes no more commands) — baffle match show { $new }
cli-verify-chain = chain    { $count } records, each hash and link checked; head { $head }
cli-verify-end = end      the end line names the same number of records and head
cli-verify-no-end = end      no end line: the file may have been cut short, or exported while the tournament went on
cli-verify-end-differs = the end line names another number of records or another head than the log's
cli-verify-seed = seed     the revealed seed's SHA-256 is the opening's commitment { $commitment }
cli-verify-order = order    the draw of { $field } players ({ $seeds } seeded) recomputed from the seed: the same order
cli-verify-not-drawn = seed     not revealed yet (the draw is not made): commitment { $commitment }
cli-verify-swiss = swiss    { $count } rounds paired again from their standings: the same pairings
cli-verify-matches = matches  { $entrants } players, { $rounds } rounds started, { $assigned } matches each checked against the draw, { $results } results each won by a player of its match, { $rulings } rulings
cli-verify-by-hand = matches  { $matches } made by hand, each checked against its round's others (one per table and per pair), { $replaced } replaced by a ruling
cli-verify-ok = VERIFIED: the log of tournament { $id }
cli-verify-failed = NOT VERIFIED: { $why }
cli-verify-head-bad = --head takes the 64 hex digits of a head
cli-verify-head-missing = the log does not pass through the published head { $head }: it was cut short or changed before it
cli-verify-head-ok = the log passes through the published head { $head }
cli-verify-bad-line = line { $line } is not a line of an export: { $why }
cli-verify-after-end = line { $line } comes after the end line
## the console's draw view
console-draw-title = draw — { $tournament }: { $format }
console-draw-format-knockout = knockout
console-draw-format-round-robin = round robin
console-draw-format-swiss = Swiss
console-draw-flight-main = main draw
console-draw-flight-consolation = consolation
console-draw-flight-last-chance = last chance
console-draw-none = this tournament has no draw (or it has not arrived yet)
console-draw-not-made = the draw is not made yet
console-draw-round-now = { $flight }, round { $round }: now
console-draw-round-next = { $flight }, round { $round }: next
console-draw-waiting-round = waiting for round { $round }
console-draw-waits-for-player = waits for { $name } (playing { $key } at table { $table })
console-draw-waits-for-table = waiting for a table
console-draw-waits-for-match = waits for { $key }'s winner
console-draw-waits-for-match-playing = waits for { $key }'s winner (table { $table })
console-draw-postponed = postponed
console-draw-playing = playing at table { $table }
console-draw-to-confirm = over at table { $table }: confirm the result
console-draw-won = { $name } won { $score }
console-draw-won-unplayed = { $name } won without play
console-draw-won-no-score = { $name } won
console-draw-drawn = drawn { $score }
console-draw-winner-of = winner of { $key }
console-draw-bye = { $name }: a bye
console-draw-waits-title = who waits for whom
console-draw-wait-line = { $key }: { $what }
console-draw-wait-winner = { $key }: { $name } waits for the winner of { $other } (playing at table { $table })
console-draw-bracket-title = { $flight }: the bracket
console-draw-hint = v room  ↑↓ scroll  R start the round  ? keys  q quit
console-todo-round-ready = { $flight }, round { $round } is ready — start it: R
console-do-start-round = start round { $round } of the { $flight } now
console-no-round-ready = no round is ready to start: every match of the round before must be decided
console-help-draw =
    v Tab   the draw and the room, in turn (↑↓ scroll the draw)
    R       start the round that is ready (y/n first)

## A device's display (`baffle-device demo`): two short lines, as a clock's LCD
## shows them. The turn and the cube are baffle_i18n::turn's (turn-phase-*,
## cube-line*); phases and pauses reuse match-phase-*, turn-match-over,
## console-turn-game-over and console-status-paused.

device-match-to = to { $length }
device-link-offline = [offline]
device-link-stopped = [stopped]
# A chess clock's move counter and period ("m12 P1"), and the colours' letters.
device-moves-period = m{ $moves } P{ $period }
device-white = W
device-black = B

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
paused = paused: { $reason }
penalty-points = { $name }: { $points ->
    [one] one penalty point
   *[other] { $points } penalty points
  }
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
match-phase-waiting = waiting
match-phase-playing = playing
match-phase-between-games = between games
match-phase-over = over
turn-phase-opening = opening roll
turn-phase-on-roll = { $name } to roll
turn-phase-moving = { $name } to move { $dice }
turn-phase-double-offered = { $name } doubled

## Short forms, for the console's table cells

turn-short-opening = opening
turn-short-on-roll = { $name } roll
turn-short-moving = { $name } move
turn-short-double-offered = { $name } doubled
turn-short-over = over
turn-match-over = match over
match-end-kind-points = on points
match-end-kind-timeout = on time
match-end-kind-penalty-points = on penalty points
match-end-kind-forfeit = by forfeit
match-end-kind-director-decision = by the director's decision
game-kind-single = single
game-kind-gammon = gammon
game-kind-backgammon = backgammon
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
dice-checking = checking the dice…
dice-verified = all { $count } rolls verified in this browser
dice-not-verified = NOT VERIFIED: { $why }
seed-none = { $name }: no seed
seed-none-required = { $name }: no seed yet (required)
seed-committed = { $name }: seed committed { $short }…
seed-revealed = { $name }: seed revealed { $short }…
seed-code = your player code
seed-add = add my seed
seed-added = seed committed for { $side }
seed-failed = no seed: { $error }

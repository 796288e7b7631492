# Οι λέξεις του baffle στα ελληνικά. Κάθε id υπάρχει και στο en.ftl (το ελέγχει test).
# Τα ids που φέρουν το όνομα μιας τιμής enum του proto ελέγχονται απέναντι στο proto.
# Τα άρθρα παραπέμπουν στην αρίθμηση του Κανονισμού της Ομοσπονδίας και των Κανόνων FIDE.

## Το πλαίσιο της σελίδας

app-title = baffle — ζωντανά
nav-tournaments = Όλα τα τουρνουά
language-label = Γλώσσα
status-connecting = σύνδεση…
status-live = ζωντανά
status-reconnecting = επανασύνδεση…
status-unreachable = ο διακομιστής δεν απαντά ({ $error })

## Αναζήτηση

search-label = Βρείτε παίκτη
search-placeholder = Όνομα παίκτη
search-button = Αναζήτηση
search-results = { $count ->
    [0] Κανένα ματς για «{ $query }».
    [one] Ένα ματς για «{ $query }»:
   *[other] { $count } ματς για «{ $query }»:
  }
tournaments-none = Δεν υπάρχουν ακόμη τουρνουά.
tournament-matches = { $count ->
    [one] ένα ματς
   *[other] { $count } ματς
  }
tournament-round = γύρος { $round }
tournament-id = κωδικός { $id }
view-matches = Ματς
view-results = Αποτελέσματα
view-wall = Οθόνη
round-label = Γύρος
round-all = όλοι οι γύροι

## Η κάρτα ενός ματς

card-table-round = Τραπέζι { $table } · γύρος { $round }
state-waiting = αναμονή παικτών
state-checked-in = { $name }: παρών
state-ready = έτοιμο: παρόντες και οι δύο
state-playing = σε εξέλιξη
state-between-games = μεταξύ παρτίδων
state-over-provisional = τέλος · αποτέλεσμα προσωρινό
state-over-confirmed = τέλος · αποτέλεσμα επικυρωμένο
match-length = στους { $length }
crawford = Crawford
post-crawford = μετά το Crawford
cube-centre = βίδος { $value } στη μέση
cube-owned = βίδος { $value } · { $name }
# The cube in a line, as a device or the console says it (baffle_i18n::turn::cube).
cube-line = βίδος { $value }
cube-line-owned = βίδος { $value } { $name }
paused = σταματημένο: { $reason }
# Πόντοι ποινής που πήρε ένας παίκτης (MatchState.penalty_points): υπέρ του.
penalty-points = { $points ->
    [one] ένας πόντος ποινής
   *[other] { $points } πόντοι ποινής
  } — υπέρ: { $name }
warnings = { $name }: { $count ->
    [one] μία παρατήρηση
   *[other] { $count } παρατηρήσεις
  }
result-won = νίκη: { $name } · { $how }
result-provisional = προσωρινό
result-confirmed = επικυρωμένο
pips = πιπς { $a } – { $b }
clock-of = ρολόι: { $name }
score-of = σκορ { $a } – { $b }

## Enums του proto (ελέγχονται απέναντι στο proto)

pause-reason-game-over = τέλος παρτίδας
pause-reason-break = διάλειμμα
pause-reason-director-called = κλήση Διευθυντή Αγώνων
pause-reason-director-stopped = διακοπή από τον Διευθυντή Αγώνων
pause-reason-dice-picked-up-early = ζάρια μαζεύτηκαν νωρίς
pause-reason-illegal-move-replay = επανάληψη αντικανονικής κίνησης
pause-reason-result-settled = οριστικό αποτέλεσμα;
pause-reason-invalid-roll = άκυρη ζαριά
pause-reason-roll-disputed = αμφισβητούμενη ζαριά
pause-reason-awaiting-links = αναμονή για τους κρίκους των παικτών (ζωντανά ζάρια)
match-phase-waiting = αναμονή
match-phase-playing = σε εξέλιξη
match-phase-between-games = μεταξύ παρτίδων
match-phase-over = τέλος
turn-phase-opening = αρχική ζαριά
turn-phase-on-roll = { $name } ρίχνει
turn-phase-moving = { $name } παίζει { $dice }
turn-phase-double-offered = { $name } διπλασίασε
# Said of a double in a line (baffle_i18n::turn): who is to answer it too.
turn-double-offered = { $name } διπλασίασε: { $other } δέχεται ή αρνείται

## Σύντομες μορφές, για τα κελιά των πινάκων της κονσόλας

turn-short-opening = αρχική
turn-short-on-roll = { $name } ρίχνει
turn-short-moving = { $name } παίζει
turn-short-double-offered = { $name } διπλ.
turn-short-over = τέλος
# No turn to show: before the first game, between games.
turn-short-none = -
turn-match-over = τέλος ματς
match-end-kind-points = στους πόντους
match-end-kind-timeout = στον χρόνο
match-end-kind-penalty-points = με πόντους ποινής
match-end-kind-forfeit = με κατακύρωση
match-end-kind-director-decision = με απόφαση του Διευθυντή Αγώνων
match-end-kind-draw = ισόπαλο
match-end-kind-double-default = ήττα και των δύο λόγω μη προσέλευσης
win-kind-single = μονή
win-kind-gammon = διπλή
win-kind-backgammon = τριπλή
chess-outcome-white-wins = 1-0
chess-outcome-black-wins = 0-1
chess-outcome-draw = ½-½
chess-outcome-both-lose = 0-0
chess-reason-checkmate = ματ
chess-reason-resignation = εγκατάλειψη
chess-reason-flag = πτώση σημαίας
chess-reason-flag-insufficient-material = πτώση σημαίας, ανεπαρκές υλικό
chess-reason-agreement = συμφωνία
chess-reason-arbiter-decision = απόφαση διαιτητή
chess-reason-default = μη προσέλευση
chess-reason-illegal-moves = αντικανονικές κινήσεις
chess-reason-both-flags = πτώση και των δύο σημαιών
chess-reason-quickplay-finish = ταχεία λήξη

## Σκάκι

chess-game-of = παρτίδα { $game } από { $games } · { $category }
# ChessState.category: "standard", "rapid" ή "blitz" (Παραρτήματα Α και Β των Κανόνων FIDE).
chess-category = { $category ->
    [standard] κλασικό
    [rapid] γρήγορο
    [blitz] αστραπιαίο
   *[other] { $category }
  }
chess-white = Λευκά: { $name }
chess-to-move = { $name } παίζει
chess-960 = 960 #{ $sp } { $rank }
chess-quickplay-postponed = αίτημα ταχείας λήξης: η απόφαση αναβάλλεται
chess-match-drawn = ισοπαλία
chess-both-lost-default = ήττα και των δύο λόγω μη προσέλευσης
chess-game-result = παρτίδα { $game }: { $result }
chess-moves = κινήσεις { $count }
color-white = Λευκά
color-black = Μαύρα

## Τα γεγονότα της ζωντανής προβολής

event-checked-in = { $name }: παρών
event-lateness-point = { $name } αργεί: πόντος ποινής — υπέρ: { $other }
event-break-started = { $name }: διάλειμμα έως { $until }
event-break-ended = το διάλειμμα τελείωσε
event-game-started = { $crawford ->
    [yes] άρχισε η παρτίδα { $number } (Crawford)
   *[no] άρχισε η παρτίδα { $number }
  }
event-opening-throw = αρχική ζαριά: { $nameA } { $a }, { $nameB } { $b }
event-rolled = { $name } έφερε { $dice }
event-roll-invalid = άκυρη ζαριά: { $name }
event-doubled = { $name } διπλασίασε στα { $value }
event-taken = { $name } δέχτηκε
event-passed = { $name } αρνήθηκε
event-pressed-back = { $name } δεν μπορεί να παίξει
event-requested-clock = { $name } ζήτησε ρολόι
event-requested-observer = { $name } ζήτησε παρατηρητή
event-appealed = { $name } προσέφυγε κατά της απόφασης { $ruling }
event-pressed = { $name } πάτησε το ρολόι
event-moved = { $name } έπαιξε { $play }
event-game-ended = { $name } κέρδισε την παρτίδα: { $points ->
    [one] ένας πόντος
   *[other] { $points } πόντοι
  } ({ $kind })
event-paused = το ρολόι σταμάτησε: { $reason }
event-resumed = το ρολόι ξεκίνησε ξανά
event-delay-restarted = ο χρόνος καθυστέρησης ξεκίνησε ξανά
event-wait-out-delay = { $name } περιμένει να εκπνεύσει η καθυστέρηση
event-turn-replayed = { $name } ξαναπαίζει αντικανονική κίνηση
event-time-expired = εξέπνευσε ο χρόνος: { $name }
event-ruling = απόφαση, { $rule }: { $action }
event-length-corrected = το μήκος του ματς διορθώθηκε σε { $length }
event-length-kept = το μήκος του ματς μένει ως έχει
event-match-ended = { $name } κέρδισε το ματς { $how }
event-match-undecided = νίκη και των δύο ταυτόχρονα: αποφασίζει ο Διευθυντής Αγώνων
event-match-resumed = το ματς συνεχίζεται
event-seed-committed = { $name } δέσμευσε σπόρο
event-seed-revealed = { $name } αποκάλυψε τον σπόρο
event-reveal-due = οι σπόροι αποκαλύπτονται έως τις { $time }
event-reveal-extended = απόφαση, { $rule }: η αποκάλυψη των σπόρων παρατείνεται έως τις { $time }
event-links-due = οι κρίκοι οφείλονται πλέον έως { $time }: { $reason }
event-dice-revealed = ο σπόρος των ζαριών αποκαλύφθηκε
event-renamed = διόρθωση ονόματος: { $was } → { $name }
event-restart = ο διακομιστής ήταν εκτός λειτουργίας { $down }: επιστράφηκαν { $credit } στο ρολόι — { $name }
event-restart-partial = ο διακομιστής ήταν εκτός λειτουργίας { $down }: το ρολόι έχασε { $charged }, επιστράφηκαν { $credit } — { $name }· για τα υπόλοιπα αποφασίζει ο διευθυντής
# Η ώρα μιας εγγραφής χωρίς δική της ώρα στο αρχείο, μετά από μία που την έχει.
event-after = μετά τις { $time }
event-chess-arrived = προσήλθαν τα { $color }
event-chess-started = άρχισε η παρτίδα
event-chess-pressed = τα { $color } πάτησαν το ρολόι
event-chess-flag = έπεσε η σημαία: { $color }
event-chess-paused = ο διαιτητής σταμάτησε το ρολόι
event-chess-resumed = το ρολόι ξεκίνησε ξανά
event-chess-move = κίνηση: { $color }
event-chess-illegal-move = αντικανονική κίνηση: { $color }
event-chess-quickplay-claim = τα { $color } ζητούν ισοπαλία (ταχεία λήξη)
event-chess-ended = τέλος παρτίδας: { $result }
event-chess-ruling = απόφαση διαιτητή, { $rule }
event-chess-next-game = ακολουθεί η παρτίδα { $game }
ruling-warning = παρατήρηση: { $name }
ruling-award-points = { $points ->
    [one] ένας πόντος ποινής
   *[other] { $points } πόντοι ποινής
  } — υπέρ: { $name }
ruling-other = απόφαση του Διευθυντή Αγώνων
ruling-deduct-points = αφαίρεση { $points ->
    [one] ενός πόντου
   *[other] { $points } πόντων
  } — { $name }
ruling-correct-score = διόρθωση σκορ
ruling-correct-result = διόρθωση της παρτίδας { $game }: νικητής { $name }
ruling-adjust-time = ρολόι — { $name }: { $delta }
ruling-set-time = ρύθμιση ρολογιού — { $name }
ruling-confirm = επικύρωση αποτελέσματος
ruling-forfeit-match = { $name }: ήττα με κατακύρωση
ruling-reschedule = η έναρξη του ματς μετατέθηκε στις { $time }
ruling-postpone = το ματς αναβλήθηκε ώσπου να οριστεί η έναρξή του
ruling-effect = { $action }: { $before } → { $after }
ruling-effect-unchanged = { $action }: { $value }

## Οι κανονισμοί, με τη δική τους αρίθμηση

rule-backgammon = άρθρο { $article } του Κανονισμού
rule-chess = άρθρο { $article } των Κανόνων FIDE
refusal = Δεν επιτρέπεται: { $message } ({ $rule })

## Αποτελέσματα

results-title = Αποτελέσματα · γύρος { $round }
results-table = Τραπέζι
results-players = Παίκτες
results-score = Σκορ
results-winner = Νικητής
results-status = Αποτέλεσμα
results-none = Κανένα ματς σε αυτόν τον γύρο.

## Οθόνη

wall-title = { $name } · γύρος { $round }

## Ζάρια

dice-line = δέσμευση ζαριών: { $commitment }… · κεφαλή { $head } · { $verdict }
dice-after-match = ελέγχονται μετά το ματς
head-checking = ελέγχεται η υπογραφή του διακομιστή σε αυτή την κεφαλή…
head-signed = κεφαλή υπογεγραμμένη από { $key }, ελεγμένη σε αυτόν τον φυλλομετρητή και φυλαγμένη
head-signed-unchecked = κεφαλή υπογεγραμμένη από { $key } (αυτός ο φυλλομετρητής δεν μπορεί να ελέγξει την υπογραφή)
head-signature-bad = η υπογραφή του διακομιστή σε αυτή την κεφαλή δεν επαληθεύεται: μην την εμπιστεύεστε
head-unsigned = αυτός ο διακομιστής δεν υπογράφει τις κεφαλές του
head-two-histories = κεφαλή υπογεγραμμένη από { $key }, αλλά αυτός ο φυλλομετρητής κράτησε άλλη κεφαλή υπογεγραμμένη από τον διακομιστή στο ίδιο σημείο: ο διακομιστής υπέγραψε δύο ιστορίες
dice-checking = έλεγχος των ζαριών…
dice-verified = { $count ->
    [0] καμία ζαριά προς επαλήθευση
    [one] η μία ζαριά επαληθεύτηκε σε αυτόν τον φυλλομετρητή
   *[other] και οι { $count } ζαριές επαληθεύτηκαν σε αυτόν τον φυλλομετρητή
  }
dice-not-verified = ΔΕΝ ΕΠΑΛΗΘΕΥΤΗΚΑΝ: { $why }
dice-why-end = η γραμμή τέλους δεν ταιριάζει με το αρχείο
dice-why-chain = εγγραφή { $seq }: η αλυσίδα έχει σπάσει
dice-why-cut = το αρχείο είναι κομμένο
dice-why-commitment = ο σπόρος που αποκαλύφθηκε δεν ταιριάζει με τη δέσμευση
dice-why-draw = εγγραφή { $seq }: το { $claimed } δεν είναι αυτό που δίνει ο σπόρος ({ $expected })
dice-why-construction = το αρχείο ορίζει κατασκευή ζαριών { $construction }, άγνωστη σε αυτή τη σελίδα
dice-why-place = εγγραφή { $seq }: η ζαριά δεν είναι στη θέση της (η παρτίδα και ο αριθμός ζαριάς διαφέρουν από τη μέτρηση της σελίδας)
dice-why-player-seed = εγγραφή { $seq }: ο σπόρος και το αλάτι που αποκαλύφθηκαν δεν ταιριάζουν με τη δέσμευση του παίκτη
dice-why-clear-seed = εγγραφή { $seq }: σπόρος δοσμένος φανερά, που η κατασκευή 2 απορρίπτει
dice-why-link = εγγραφή { $seq }: ο κρίκος δεν δίνει με hash την τελευταία τιμή της αλυσίδας του παίκτη
live-anchor = η αλυσίδα σας: { $anchor }… (ο φυλλομετρητής ελέγχει ότι το αρχείο την περιέχει)
dice-why-anchor = εγγραφή { $seq }: δεν είναι η αλυσίδα που δέσμευσε αυτός ο φυλλομετρητής για τον παίκτη του: δεν είναι το αρχείο του αγώνα του
dice-why-links = εγγραφή { $seq }: ζωντανή ζαριά χωρίς τους κρίκους και των δύο παικτών
# Ζωντανά ζάρια (θέμα 35): η αλυσίδα και τα κουμπιά του παίκτη στη σελίδα του ματς.
live-chain = { $name }: αλυσίδα δεσμεύτηκε, απομένουν { $left } κρίκοι
live-no-chain = { $name }: χωρίς αλυσίδα ακόμη
live-start = παίζω με ζωντανά ζάρια
live-started = η αλυσίδα δεσμεύτηκε για { $side }
live-failed = ζωντανά ζάρια: { $error }
live-mine = αυτό το κινητό παίζει για { $name } και δίνει μόνο του τους κρίκους του παίκτη
live-waiting = τα ζάρια περιμένουν τον κρίκο: { $names }
live-roll = Ζάρια (και η αρχική)
live-double = Διπλό
live-take = Δέχομαι
live-pass = Αρνούμαι
live-press = Πάτα το ρολόι
seed-none = { $name }: χωρίς σπόρο
seed-none-required = { $name }: χωρίς σπόρο ακόμη (απαιτείται)
seed-committed = { $name }: σπόρος δεσμεύτηκε { $short }…
seed-revealed = { $name }: σπόρος αποκαλύφθηκε { $short }…
seed-code = ο κωδικός σας ως παίκτη
seed-add = προσθήκη του σπόρου μου
seed-added = ο σπόρος δεσμεύτηκε για { $side }
seed-failed = χωρίς σπόρο: { $error }
seed-reveal-due = δεν έχει αποκαλυφθεί ακόμη: { $names } · προθεσμία { $time }
seed-reveal-overdue = δεν έχει αποκαλυφθεί ακόμη: { $names } · εκπρόθεσμα: αποφασίζει ο Διευθυντής Αγώνων

## Η σελίδα: γύροι, το ταμπλό, οι λέξεις του (θέμα 31). Μόνο της σελίδας.

# Η λίστα ενός τουρνουά, μια επικεφαλίδα ανά γύρο (ο τελευταίος πρώτος).
page-round-heading = Γύρος { $round }
# Η επιλογή γύρου στα αποτελέσματα.
page-rounds = Γύροι
page-round-link = γύρος { $round }
# Ο βίδος στη μέση σχεδιάζεται όπως ο αληθινός, με το 64 επάνω· αξίζει 1.
page-cube-centre = βίδος στη μέση · το 64 επάνω, αξία { $value }
page-pips = πιπς: { $a } { $pa } · { $b } { $pb }
page-board-label = το ταμπλό από τη μεριά: { $name }
page-board-turn = από τη μεριά: { $name } · γύρισε το ταμπλό
page-board-off = { $count } μαζεμένα
page-board-cube = ο βίδος: { $value }
page-dice-label = τα ζάρια: { $dice }
page-legend-a = { $name }: άσπρα πούλια
page-legend-b = { $name }: κόκκινα πούλια
page-download = λήψη .{ $format }

## Η σελίδα: η κλήρωση ενός τουρνουά (draw.js), στο κινητό, στον τοίχο και σε χαρτί. Μόνο της σελίδας.

draw-view = Κλήρωση
draw-wall = Η κλήρωση στον τοίχο
draw-title = { $name } · κλήρωση
draw-none = Αυτό το τουρνουά δεν έχει κλήρωση.
draw-flight-main = Κύριο ταμπλό
draw-flight-consolation = Παρηγορητικό
draw-flight-last-chance = Τελευταία ευκαιρία
draw-final = Τελικός
draw-semi-finals = Ημιτελικοί
draw-quarter-finals = Προημιτελικοί
draw-champion = νικητής: { $name }
draw-bye = χωρίς αντίπαλο
draw-byes = Χωρίς αντίπαλο: { $names }
draw-table = τραπέζι { $table }
draw-playing = παίζεται
draw-unplayed = δεν παίχτηκε
draw-drawn = ισοπαλία
draw-pairings = Ζευγάρια · γύρος { $round }
draw-standings = Βαθμολογία
draw-col-place = Θέση
draw-col-name = Παίκτης
draw-col-played = Αγώνες
draw-col-won-lost = Ν–Η
draw-col-score = Βαθμοί
draw-col-buchholz = Buchholz
draw-col-sb = SB
draw-col-match = Ματς
draw-search-label = Η πορεία ενός παίκτη στην κλήρωση
draw-search-placeholder = Βρείτε παίκτη: μέρος του ονόματος
draw-search-none = Κανείς στην κλήρωση δεν λέγεται «{ $query }».
draw-path-won = νίκη { $score } — αντίπαλος: { $name }
draw-path-lost = ήττα { $score } — αντίπαλος: { $name }
draw-path-drawn = ισοπαλία { $score } — αντίπαλος: { $name }
draw-path-playing = παίζει τώρα — αντίπαλος: { $name }, τραπέζι { $table }
draw-path-waiting = περιμένει να παίξει — αντίπαλος: { $name }
draw-path-bye = χωρίς αντίπαλο: περνά στον επόμενο γύρο χωρίς ματς
draw-proof-title = Η απόδειξη της κλήρωσης
draw-proof-commitment = Δέσμευση (SHA-256 του σπόρου της κλήρωσης, δημοσιευμένη πριν από την κλήρωση): { $commitment }
draw-proof-seed = Ο σπόρος, αποκαλυμμένος με την κλήρωση: { $seed }
draw-proof-seed-hidden = Σπόρος: αποκαλύπτεται όταν γίνει η κλήρωση.
draw-proof-log = Το αρχείο του τουρνουά: { $length } εγγραφές, κεφαλή { $head }
draw-proof-verify = Οποιοσδήποτε μπορεί να ξαναϋπολογίσει την κλήρωση από το εξαγόμενο αρχείο: baffle draw verify.
draw-proof-download = λήψη του αρχείου
draw-print-draw = Εκτύπωση της κλήρωσης
draw-print-scoresheets = Εκτύπωση φύλλων αγώνα
draw-print-results = Εκτύπωση αποτελεσμάτων
print-button = Εκτύπωση
print-title-draw = { $name } — φύλλο κλήρωσης
print-title-scoresheets = { $name } — φύλλα αγώνα
print-title-results = { $name } — αποτελέσματα
print-decided = Ματς που κρίθηκαν
print-decided-none = Κανένα ματς δεν έχει κριθεί ακόμη.
print-placing = { $place }. { $name }
sheet-match = Ματς
sheet-table = Τραπέζι
sheet-length = Διάρκεια
sheet-points = { $length } πόντοι
sheet-start = Έναρξη
sheet-game = Παρτίδα
sheet-points-a = Πόντοι: { $a }
sheet-points-b = Πόντοι: { $b }
sheet-score-a = Σκορ: { $a }
sheet-score-b = Σκορ: { $b }
sheet-cube = Βίδος
sheet-winner = Νικητής: ______________________   Τελικό σκορ: ______ – ______
sheet-director = Διευθυντής Αγώνων
sheet-signature = Υπογραφή: { $name }

## Η κονσόλα και η γραμμή εντολών (`baffle`): σύντομες λέξεις για κελιά και γραμμές

match-status-waiting = αναμονή
match-status-present = 1 παρών
match-status-ready = έτοιμο
match-status-playing = σε εξέλιξη
match-status-between-games = μεταξύ παρτίδων
match-status-over = τέλος
match-status-confirmed = επικυρωμένο
match-status-undecided = εκκρεμεί
console-status-paused = σε παύση
match-status-postponed = σε αναβολή
console-col-table = ΤΡΠ
console-col-round = ΓΥΡ
console-col-match = ΜΑΤΣ
console-col-players = ΠΑΙΚΤΕΣ
console-col-score = ΣΚΟΡ
console-col-status = ΚΑΤΑΣΤΑΣΗ
console-col-clock-a = ΡΟΛΟΪ A/Λ
console-col-clock-b = ΡΟΛΟΪ B/Μ
console-col-turn = ΣΕΙΡΑ
console-col-device = ΣΥΣ
console-col-note = ΝΙΚΗΤΗΣ / ΠΑΥΣΗ
console-versus = { $a } – { $b }
console-device-on = ναι
console-device-off = ΟΧΙ
console-flag = ΣΗΜΑΙΑ
console-turn-white = Λ παίζουν
console-turn-black = Μ παίζουν
console-turn-game-over = τέλος παρτίδας
console-note-drawn = ισοπαλία
console-note-both-lost = ήττα και των δύο (6.7)
console-note-winner = { $name } ({ $how })
console-title = κονσόλα baffle — { $tournament }
console-title-filtered = κονσόλα baffle — { $tournament } — μόνο «{ $filter }» (Esc: όλα)
feed-unreachable = δεν υπάρχει σύνδεση με τον διακομιστή { $server } ({ $why }) — επανασύνδεση
feed-lost = η σύνδεση χάθηκε ({ $why }) — επανασύνδεση
feed-retrying = { $why } — επανασύνδεση
feed-closed = ο διακομιστής έκλεισε τη ροή — επανασύνδεση
console-todo-none = καμία εκκρεμότητα
console-todo-title = εκκρεμότητες ({ $count })
console-ticker-title = τι έγινε
console-help-title = πλήκτρα
console-help =
    ↑↓ j k  επιλογή ματς
    Enter   το επιλεγμένο ματς αναλυτικά (οποιοδήποτε πλήκτρο το κλείνει)
    /       μόνο τα ματς με ένα κείμενο στον κωδικό, τραπέζι ή παίκτες
    Esc     όλα τα ματς ξανά
    p       παύση ρολογιού: ο αριθμός του λόγου (σκάκι: διακοπή, 6.12)
    r       συνέχιση του ρολογιού (σκάκι: επανεκκίνηση των ρολογιών)
    i       δήλωση παρουσίας παίκτη (σκάκι: προσέλευση στη σκακιέρα)
    w       παρατήρηση σε παίκτη
    x       πόντοι ποινής σε παίκτη
    a       διόρθωση ρολογιού, π.χ. A -30s (σκάκι: ρύθμιση ρολογιού, Λ 5m)
    s       διόρθωση του σκορ, π.χ. 3 2
    f       ήττα παίκτη με κατακύρωση
    e       παράταση της προθεσμίας για τον σπόρο ενός παίκτη
    c       επικύρωση του αποτελέσματος
    d       απόρριψη ανωμαλιών ζαριών και δηλώσεων κλεισίματος του ματς
    q       έξοδος          (κάθε ενέργεια ζητά ν/ο πριν σταλεί)
    Ctrl-C  ακύρωση της ερώτησης ή έξοδος: δεν απαντά ποτέ σε ερώτηση
console-hint = Enter ματς  / φίλτρο  p παύση  r συνέχεια  c επικύρωση  ? πλήκτρα  q έξοδος
console-hint-chess = Enter ματς  / φίλτρο  p διακοπή  r επανεκκίνηση  a ρολόι  ? πλήκτρα  q έξοδος
console-confirm = { $action }; ν/ο (ή y/n)
console-prompt-filter = μόνο τα ματς που περιέχουν
console-prompt-chess-clock = ρύθμιση ρολογιού, με σταματημένα ρολόγια: χρώμα (Λ ή Μ) και χρόνος, π.χ. Λ 5m
console-prompt-chess-arrive = προσέλευση στη σκακιέρα: Λ (Λευκά) ή Μ (Μαύρα)
console-pause-title = παύση: πατήστε τον αριθμό του λόγου
console-prompt-pause = παύση, πατήστε τον αριθμό του λόγου: { $choices }
console-prompt-score = διόρθωση του σκορ: πόντοι { $a }, ένα κενό, πόντοι { $b }, π.χ. 3 2
console-ask-adjust = διόρθωση ρολογιού: { $a } (A) ή { $b } (B), π.χ. A -30s
console-ask-points = πόντοι ποινής σε: { $a } (A) ή { $b } (B), π.χ. B 1
console-ask-check-in = δήλωση παρουσίας: { $a } (A) ή { $b } (B), π.χ. A
console-ask-warn = παρατήρηση σε: { $a } (A) ή { $b } (B), π.χ. B
console-ask-forfeit = ήττα με κατακύρωση: { $a } (A) ή { $b } (B), π.χ. B
console-not-in-chess = όχι στο σκάκι: οι αποφάσεις του διαιτητή δίνονται με `baffle chess MATCH …`
console-no-match = δεν έχει επιλεγεί ματς
console-bad-side = «{ $text }»: δεν είναι πλευρά: A ή B, ένα κενό, και μετά η τιμή
console-bad-colour = «{ $text }»: δεν είναι χρώμα: Λ ή Μ
console-bad-score = «{ $text }»: δύο αριθμοί, πρώτα οι πόντοι του A και μετά του B, π.χ. 3 2
console-bad-reason = «{ $text }»: ένας αριθμός από 1 έως { $count }
console-bad-points = «{ $text }»: δεν είναι αριθμός πόντων
console-bad-minutes = «{ $text }»: δεν είναι αριθμός λεπτών
console-in-match = { $action } στο { $match }
console-do-stop = διακοπή των ρολογιών (6.12)
console-do-restart = επανεκκίνηση των ρολογιών (6.12)
console-do-resume = συνέχιση του ρολογιού
console-do-confirm = επικύρωση του αποτελέσματος
console-do-pause = παύση του ρολογιού ({ $reason })
console-do-score = διόρθωση του σκορ σε { $a } { $sa } – { $sb } { $b }
console-do-arrive = προσέλευση στη σκακιέρα: { $color }
console-do-adjust = διόρθωση ρολογιού: { $name }, κατά { $by }
console-do-points = { $points ->
    [one] ένας πόντος ποινής — υπέρ: { $name }
   *[other] { $points } πόντοι ποινής — υπέρ: { $name }
  }
console-do-check-in = δήλωση παρουσίας: { $name }
console-do-warn = παρατήρηση σε: { $name }
console-do-forfeit = ήττα με κατακύρωση: { $name }
console-do-extend = οι σπόροι οφείλονται σε { $minutes } λεπτά
console-do-extend-links = οι κρίκοι οφείλονται σε { $minutes } λεπτά
console-ask-extend = παράταση για τον σπόρο: { $name }: λεπτά από τώρα, π.χ. 10
console-ask-extend-links = περισσότερος χρόνος για τον κρίκο: { $name }: λεπτά από τώρα, π.χ. 5
console-no-reveal = { $match }: δεν αναμένεται σπόρος, δεν υπάρχει προθεσμία για παράταση
console-no-confirm-open = { $match }: το ματς δεν έχει τελειώσει: δεν υπάρχει αποτέλεσμα για επικύρωση (4.6)
console-no-confirm-done = { $match }: το αποτέλεσμα έχει ήδη επικυρωθεί (4.6)
console-do-set-clock = ρύθμιση ρολογιού: { $color } στα { $time }
console-at-table = { $match } (τραπέζι { $table })
console-todo-confirm = { $at }: νίκη: { $name } ({ $how }) — επικυρώστε το αποτέλεσμα: c
console-todo-confirm-nobody = { $at }: το ματς τελείωσε ({ $how }) — επικυρώστε το αποτέλεσμα: c
console-todo-flag = { $at }: έπεσε η σημαία: { $name } — αποφασίστε
console-todo-outage = { $at }: { $name }: χάθηκαν { $time } στη διακοπή του διακομιστή — απόφαση: a (διόρθωση ρολογιού)
console-todo-undecided = { $at }: νίκη και των δύο την ίδια στιγμή (2.2) — αποφασίστε το ματς: baffle rule … decide-match A|B
console-todo-offline = { $at }: ΕΚΤΟΣ ΛΕΙΤΟΥΡΓΙΑΣ, το αρχείο του δεν επαληθεύτηκε ({ $reason }) — επαναφέρετε τον κατάλογο δεδομένων από αντίγραφο ασφαλείας (docs/reliability.md)
console-todo-appeals = { $at }: { $count ->
    [one] μία προσφυγή περιμένει την επιτροπή (5)
   *[other] { $count } προσφυγές περιμένουν την επιτροπή (5)
  }
console-todo-anomalies = { $said } — d για απόρριψη
console-todo-anomalies-many = { $said } ({ $count } προειδοποιήσεις) — d για απόρριψη
console-todo-reveal-pending = { $at }: αναμένεται ο σπόρος: { $name }, προθεσμία { $due } — κανένα ζάρι ως τότε
console-todo-reveal-overdue = { $at }: { $name }: δεν αποκάλυψε τον σπόρο του, προθεσμία { $due } — παράταση: e, ή ήττα με κατακύρωση: f
console-todo-link-pending = { $at }: αναμονή για τον κρίκο του/της { $name } (ζωντανά ζάρια), έως { $due } — τίποτα δεν παίζεται ως τότε
console-todo-link-overdue = { $at }: δεν ήρθε ο κρίκος: { $name } (ζωντανά ζάρια), έως { $due } — { $name }: ήττα με κατακύρωση εκτός αν δώσετε παράταση: e
console-todo-links-overdue = { $at }: δεν ήρθε ο κρίκος: { $name } (ζωντανά ζάρια), έως { $due } — κανείς παίκτης δεν έδωσε τον κρίκο του, άρα κανείς δεν χάνει αυτόματα: παράταση: e, ή απόφαση
console-todo-press-back = { $at }: { $name }: πάτησε χωρίς ζαριά, δηλώνει ότι είναι κλειστός (4.2 (i)) — ελέγξτε το ταμπλό· d για απόρριψη
console-tick-press-back = { $match }: { $name }: πάτησε χωρίς ζαριά, δηλώνει ότι είναι κλειστός (4.2 (i)): ελέγξτε το ταμπλό
console-anomaly = { $match }: ύποπτα ζάρια, { $name }: { $what }
console-anomaly-nobody = { $match }: ύποπτα ζάρια: { $what }
console-tick-flag = { $match }: έπεσε η σημαία: { $name }
console-tick-penalty = { $match }: πόντος ποινής — υπέρ: { $name } ({ $total } συνολικά)
console-tick-device-on = { $match }: η συσκευή { $device } συνδέθηκε
console-tick-device-off = { $match }: η συσκευή { $device } αποσυνδέθηκε
console-tick-paused = { $match }: παύση ρολογιού ({ $reason })
console-tick-status = { $match }: τώρα { $status }
console-tick-renamed = { $match }: διόρθωση ονόματος, παίκτης { $side }: { $old } → { $new }
console-tick-warning = { $match }: παρατήρηση σε: { $name } ({ $total } συνολικά)
console-tick-sent = στάλθηκε: { $action }
console-tick-cancelled = δεν στάλθηκε: { $action }
console-tick-refused = απορρίφθηκε: { $why }
console-line = { $match }  γύρος { $round }  τραπέζι { $table }  { $status }  { $score }
console-offline-line = { $match } γύρος { $round } τραπέζι { $table }: ΕΚΤΟΣ ΛΕΙΤΟΥΡΓΙΑΣ — { $reason }
event-dice-drawn = ζάρια διακομιστή για { $name }: { $dice }
event-dice-opening = ζάρια διακομιστή για την αρχική ζαριά
event-dice-chain = { $name }: δέσμευση αλυσίδας ζωντανών ζαριών
event-dice-asked = ζωντανά ζάρια: ζητήθηκε η ζαριά του/της { $name }, αναμένονται οι δύο κρίκοι
event-dice-asked-opening = ζωντανά ζάρια: ζητήθηκε η αρχική ζαριά, αναμένονται οι δύο κρίκοι
event-dice-link = ζωντανά ζάρια: { $name } έδωσε κρίκο
event-dice-anomaly = ο έλεγχος των ζαριών εντόπισε ανωμαλία
event-other = { $kind }

## `baffle match show` και `match list`

cli-col-match = ΜΑΤΣ
cli-col-round = ΓΥΡΟΣ
cli-col-table = ΤΡΑΠΕΖΙ
cli-col-score = ΣΚΟΡ
cli-col-status = ΚΑΤΑΣΤΑΣΗ
cli-col-winner = ΝΙΚΗΤΗΣ
cli-refused = δεν έγινε δεκτό ({ $code }): { $message }
cli-unreachable = ο διακομιστής δεν απαντά: { $why }
cli-tournament-created = δημιουργήθηκε το τουρνουά { $id }
cli-tournament-where = χώρος { $venue }  ημέρες { $days }
cli-hint-unauthenticated = δώστε --token ή ορίστε BAFFLE_TOKEN· ο κωδικός του Διευθυντή Αγώνων είναι στο <data-dir>/director.token
cli-hint-permission-denied = χρησιμοποιήστε τον κωδικό του Διευθυντή Αγώνων ή μια συσκευή δεμένη σε αυτό το ματς
cli-hint-not-found = ελέγξτε τον κωδικό με `baffle match list --all`
cli-hint-aborted = το ματς προχώρησε: δείτε το `baffle match show` και ξαναδοκιμάστε
cli-hint-failed-precondition = οι κανονισμοί δεν το επιτρέπουν τώρα: δείτε το `baffle match show ΜΑΤΣ`· ίσως χρειάζεται δική σας απόφαση (`baffle rule ΜΑΤΣ --reason … --article …`)
cli-hint-invalid-argument = ελέγξτε την εντολή με --help
cli-hint-resource-exhausted = πιο αργά, και ξαναδοκιμάστε
cli-hint-already-exists = διαλέξτε άλλον κωδικό
cli-hint-other = ξαναδοκιμάστε· αν επιμένει, δείτε το αρχείο καταγραφής του διακομιστή
cli-hint-not-found-tournament = ελέγξτε τον κωδικό με `baffle tournament list --all`
cli-hint-not-found-device = καταχωρίστε τη με `baffle device register ΚΩΔΙΚΟΣ` (το `baffle device list` δείχνει όσες είναι δεμένες σε ματς)
cli-hint-match-id-taken = οι κωδικοί ματς είναι κοινοί για όλα τα τουρνουά: διαλέξτε έναν με --id, π.χ. --id { $example }
cli-hint-match-id-default-taken = οι κωδικοί ματς είναι κοινοί για όλα τα τουρνουά και ο προεπιλεγμένος r<round>-t<table> είναι πιασμένος: διαλέξτε έναν με --id, π.χ. --id { $example }
cli-winner-nobody = κανείς (6.7)
cli-match-head = { $match }  { $tournament }  γύρος { $round }  τραπέζι { $table }  { $status }
cli-match-replaced = αντικαταστάθηκε από τον αγώνα { $by } (απόφαση: { $ruling }): το αρχείο του μένει· δεν δέχεται άλλες εντολές ούτε καταγράφει τίποτε πια
cli-status-replaced = αντικαταστάθηκε από { $by }
cli-score = σκορ   { $score }
cli-crawford = CRAWFORD
cli-game = παρτίδα { $number }  { $cube }  { $turn }
cli-adjudication-certain = ταμπλό  ο { $side } κερδίζει ό,τι κι αν φέρουν τα ζάρια (4.3 (iv))
cli-adjudication-most-single = ταμπλό  ο { $side } μπορεί να κερδίσει το πολύ απλή παρτίδα (4.5)
cli-adjudication-most-gammon = ταμπλό  ο { $side } μπορεί να κερδίσει το πολύ διπλή (4.5)
cli-adjudication-most-backgammon = ταμπλό  ο { $side } μπορεί ακόμη να κερδίσει τριπλή (4.5)
cli-clock = ρολόι  { $a }  { $b }  τρέχει: { $running }
cli-clock-paused = σε παύση: { $reason }
cli-result-drawn = αποτέλεσμα: ισοπαλία
cli-result-drawn-provisional = αποτέλεσμα: ισοπαλία;
cli-result-both-lost = αποτέλεσμα: ήττα και των δύο λόγω μη προσέλευσης (6.7)
cli-result-won = αποτέλεσμα: νίκη { $name } ({ $how }), επικυρωμένο
cli-result-won-provisional = αποτέλεσμα: νίκη { $name } ({ $how }), αναμένει την επικύρωση του Διευθυντή Αγώνων
cli-dice-anomalies = ζάρια  { $count ->
    [one] μία ανωμαλία
   *[other] { $count } ανωμαλίες
  }, η τελευταία: { $last }
cli-device-connected = συσκευή { $device } συνδεδεμένη
cli-device-not-connected = συσκευή { $device } αποσυνδεδεμένη
cli-log = αρχείο { $count } εγγραφές, κεφαλή { $head }
cli-reveal-pending = ζάρια  αναμένεται ο σπόρος: { $name } (προθεσμία { $due }): κανένα ζάρι ως τότε
cli-live-waiting = ζάρια  { $draw }: αναμένεται ο κρίκος: { $names } (προθεσμία { $due })
cli-live-overdue = ζάρια  { $draw }: αναμονή για τον κρίκο: { $names }: ΕΚΠΡΟΘΕΣΜΑ από τις { $due }, αποφασίζει ο Διευθυντής — παράταση: baffle rule { $match } --reason … --article 2.3 extend-reveal ΛΕΠΤΑ, ή ήττα με κατακύρωση (2.3)
live-draw-roll = η ζαριά του/της { $name }
live-draw-opening = η αρχική ζαριά
live-joined = η αλυσίδα δεσμεύτηκε για το { $match } ως { $side } ({ $length } κρίκοι), φυλάσσεται στο { $file }: κρατήστε το αρχείο μυστικό ως το τέλος του αγώνα
live-verify-hint = μετά τον αγώνα, ελέγξτε ότι το αρχείο του περιέχει την αλυσίδα σας: baffle audit export { $match } -o log.jsonl && baffle audit verify log.jsonl --require-reveal --player-commit { $side }={ $anchor }
live-resumed = η αλυσίδα σας για το { $match } είναι ήδη δεσμευμένη (απομένουν { $left } κρίκοι): συνέχεια με το { $file }
live-chain-mismatch = η αλυσίδα στο { $file } δεν είναι αυτή που κρατά ο διακομιστής για το { $side }: οι κρίκοι σας θα απορρίπτονταν
live-file-other-match = το { $file } είναι η αλυσίδα του αγώνα { $match }, πλευρά { $side }: δώστε άλλο --chain-file
live-file-other-server = το { $file } φτιάχτηκε για άλλη δέσμευση ζαριών αυτού του αγώνα: δώστε άλλο --chain-file
live-not-live = ο αγώνας { $match } δεν παίζεται με ζωντανά ζάρια
live-no-chain-file = καμία αλυσίδα στο { $file }: τρέξτε πρώτα `baffle live join { $match } --code …`
live-no-link = δεν απομένει κρίκος στο { $file }: τρέξτε ξανά `baffle live join` για νέα αλυσίδα
live-link-given = δόθηκε ο κρίκος { $index }
live-done = έγινε
live-commands = εντολές: roll, opening, double, take, pass, press, move ΚΙΝΗΣΗ (π.χ. move 8/3 6/3), show, quit
cli-reveal-overdue = ζάρια  { $name }: δεν αποκάλυψε τον σπόρο του, προθεσμία { $due } — παράταση: baffle rule { $match } --reason … --article … extend-reveal ΛΕΠΤΑ, ή ήττα με κατακύρωση (2.3): baffle rule { $match } --reason … --article 2.3 forfeit-match { $side }
cli-dice-verified = ζάρια  επαληθεύτηκαν: { $count ->
    [one] η μία κλήρωση του διακομιστή υπολογίστηκε ξανά
   *[other] και οι { $count } κληρώσεις του διακομιστή υπολογίστηκαν ξανά
  } από τον σπόρο που αποκαλύφθηκε
cli-dice-not-verified = ζάρια  ΔΕΝ ΕΠΑΛΗΘΕΥΤΗΚΑΝ: { $why }
cli-dice-unreadable = ζάρια  δεν ελέγχθηκαν: το αρχείο δεν διαβάστηκε ({ $why })
cli-dice-revealed = ζάρια  ο σπόρος αποκαλύφθηκε: το baffle audit export { $match } | baffle audit verify - υπολογίζει ξανά κάθε κλήρωση
cli-reveal-extended = οι σπόροι οφείλονται πλέον έως { $due } (το αρχείο έχει { $count } εγγραφές)
cli-links-extended = οι κρίκοι οφείλονται πλέον έως { $due } (το αρχείο έχει { $count } γεγονότα)
cli-col-id = ΚΩΔΙΚΟΣ
cli-col-name = ΟΝΟΜΑ
cli-archived = (αρχειοθετημένο)
cli-tournament-archived = το τουρνουά { $id } αρχειοθετήθηκε: δεν εμφανίζεται στους καταλόγους (το --all το δείχνει), τα ματς του παραμένουν προσβάσιμα και επαληθεύσιμα
cli-tournament-unarchived = το τουρνουά { $id } επέστρεψε στους καταλόγους
cli-tournament-already-archived = το τουρνουά { $id } ήταν ήδη αρχειοθετημένο: τίποτα δεν άλλαξε
cli-tournament-already-listed = το τουρνουά { $id } ήταν ήδη στους καταλόγους: τίποτα δεν άλλαξε

## `baffle follow`: ο πίνακας ενός ματς

follow-match-to = ματς στους { $length }
follow-crawford-game = ΠΑΡΤΙΔΑ CRAWFORD
follow-delay = καθυστέρηση { $time }
follow-moves-period = κινήσεις { $moves }   περίοδος { $period }
follow-no-clock = χωρίς ρολόι
follow-game = παρτίδα { $number }   { $cube }   { $turn }
follow-drawn-confirmed = το ματς έληξε ισόπαλο (επικυρωμένο)
follow-drawn-provisional = το ματς έληξε ισόπαλο (προς επικύρωση)
follow-both-lost = ήττα και των δύο λόγω μη προσέλευσης (6.7)
follow-won-confirmed = νίκη στο ματς: { $name } ({ $how }, επικυρωμένη)
follow-won-provisional = νίκη στο ματς: { $name } ({ $how }, αναμένει την επικύρωση του Διευθυντή Αγώνων)
follow-dice-committed = δέσμευση ζαριών: { $commitment }…
follow-seed-revealed = { $name }: αποκαλύφθηκε
follow-seed-committed = { $name }: δεσμεύτηκε { $short }…
follow-seed-to-give = { $name }: αναμένεται
follow-seeds = σπόροι: { $list }
follow-dice-waiting = αναμένεται ο σπόρος: { $name } (προθεσμία { $due })
follow-dice-checking = ο σπόρος αποκαλύφθηκε: έλεγχος των ζαριών…
follow-dice-verified = τα ζάρια επαληθεύτηκαν: { $count ->
    [one] η μία κλήρωση υπολογίστηκε
   *[other] και οι { $count } κληρώσεις υπολογίστηκαν
  } ξανά εδώ
follow-dice-not-verified = ζάρια: ΔΕΝ ΕΠΑΛΗΘΕΥΤΗΚΑΝ: { $why }
follow-dice-unreadable = ζάρια: δεν ελέγχθηκαν: το αρχείο δεν διαβάστηκε ({ $why })
follow-footer = γεγονός { $seq }  κεφαλή { $head }   q: έξοδος
follow-title = baffle follow
follow-chess-to-move = παίζει { $name } ({ $color })
follow-chess-not-started = δεν έχει αρχίσει
follow-chess-quickplay-claim = αίτημα ισοπαλίας (γρήγορη λήξη) από { $color }
follow-chess-illegal-moves = παράνομες κινήσεις: Λευκά { $white }, Μαύρα { $black }
follow-chess-game-result = παρτίδα { $game } ({ $name } με τα Λευκά): { $result }

## The console's rulings worded by the director, and answers he types again (issue 31)
console-ask-reason = { $action }: η αιτιολογία της απόφασης
console-ask-article = άρθρο του κανονισμού (Enter: { $usual })
console-no-reason = μια απόφαση χρειάζεται αιτιολογία: γράψτε την
console-with-grounds = { $action } (άρθρο { $article }: { $reason })
cli-hint-look-up = το `baffle match show MATCH` δείχνει τις παρτίδες με τους αριθμούς τους, τους πόντους ποινής, τις παρατηρήσεις και ποιος είναι παρών
cli-hint-check-in = ένας παίκτης δεν έχει δηλώσει παρουσία: `baffle play MATCH check-in A` (ή B) όταν καθίσει
cli-hint-play-order = το παιχνίδι δεν είναι σε αυτό το σημείο: το `baffle match show MATCH` λέει ποιος παίζει και τι περιμένει το παιχνίδι
cli-hint-refused-now = οι κανόνες δεν το επιτρέπουν τώρα: το `baffle match show MATCH` δείχνει τον αγώνα όπως είναι
cli-no-side-to-act = κανείς δεν έχει σειρά γι' αυτό στο { $match } τώρα: δώστε την πλευρά (A ή B)
cli-side-with-request-id = με --request-id δώστε την πλευρά (A ή B): όποια βρεθεί από την κατάσταση του αγώνα αλλάζει μόλις γίνει η εντολή, και η επανάληψή της θα ήταν άλλη εντολή
cli-roll-while-moving = { $match }: παίζει τώρα — { $name }· ζαριά τώρα είναι πρόωρη ζαριά του αντιπάλου (4.1 (v)(a)) — δώστε την πλευρά του
cli-player-present = παρών
cli-player-absent = απών
cli-player-record = παίκτης { $side }: { $name }, { $presence }· πόντοι ποινής { $penalty }, παρατηρήσεις { $warnings }
cli-games = παρτίδες (οι αριθμοί που δέχεται το `rule … correct-result GAME`):
cli-games-none = παρτίδες: καμία δεν έχει τελειώσει ακόμη
cli-cannot-reach = δεν υπάρχει σύνδεση με τον διακομιστή { $server }: { $why }
cli-unreachable-hint = τρέχει εκεί το `baffled`; (README: "Set-up"), ή δώστε --server URL
cli-unreachable-hint-tls = τρέχει, και είναι έμπιστο το πιστοποιητικό του; ένα από ιδιωτική αρχή θέλει --ca-cert FILE
cli-lateness-counts = σημείωση: η καθυστέρηση μετρά από την έναρξη του ματς (2.2): όποιος δεν έχει δηλώσει παρουσία έως τις { $time } παίρνει τον πρώτο πόντο ποινής. Για επόμενο γύρο: δημιουργήστε το με --start-in (π.χ. --start-in 2h), ή δηλώστε τους παίκτες όταν καθίσουν.
cli-outage = { $name }: χάθηκαν { $time } στη διακοπή του διακομιστή και δεν επιστράφηκαν — απόφαση (baffle rule { $match } --reason "…" --article "4.3 (v)" adjust-time { $letter } +{ $time })
cli-game-line = { $number }. { $name } κέρδισε { $points ->
    [one] 1 πόντο
   *[other] { $points } πόντους
  } ({ $kind }, βίδος { $cube })
cli-win-kind-single = μονή
cli-win-kind-gammon = διπλή
cli-win-kind-backgammon = τριπλή
event-match-opened = ο αγώνας άνοιξε
event-match-setup = ορίστηκαν οι ρυθμίσεις του αγώνα
event-device-input = μια ενέργεια από τη συσκευή { $device }
event-device-input-refused = μια ενέργεια από τη συσκευή { $device }, απορρίφθηκε: { $why }

## Η μέρα ενός τουρνουά από τη γραμμή εντολών: `baffle player`, `draw`, `round`, `pairing`, `standings`

cli-hint-draw = δείτε το `baffle draw show { $id }`
cli-hint-draw-open = ανοίξτε πρώτα την κλήρωσή του: `baffle draw open { $id } --format … --length … --tables …`
cli-draw-bad-tables = --tables: ένα εύρος όπως 1-8, μια λίστα όπως 1,2,5, ή και τα δύο (1-4,7), όχι «{ $text }»
cli-draw-bad-numbers = αριθμοί παικτών χωρισμένοι με κόμμα, όπως 3,1,7, όχι «{ $text }»
cli-draw-bad-rating = η βαθμολογία είναι αριθμός πόντων με έως δύο δεκαδικά, όπως 1523.47, όχι «{ $text }»
cli-draw-bad-experience = η εμπειρία είναι ακέραιος αριθμός, όχι «{ $text }»
cli-draw-bad-score = το σκορ γράφεται με τους πόντους του παίκτη Α, παύλα, και του Β: 7-3, όχι «{ $text }»
cli-draw-bad-time = η ώρα γράφεται ΩΩ:ΛΛ για σήμερα (UTC) ή κατά RFC 3339, όπως 2026-05-02T10:00:00+03:00, όχι «{ $text }»
cli-import-unreadable = το αρχείο CSV δεν διαβάζεται: { $why }
cli-import-no-name = η πρώτη γραμμή πρέπει να ονομάζει τις στήλες, και μία από αυτές να είναι η «name» (οι άλλες: federation_id, club, rating, experience, player_id)
cli-import-unknown-column = άγνωστη στήλη «{ $column }»: οι στήλες είναι name, federation_id, club, rating, experience, player_id
cli-import-bad-line = γραμμή { $line }: { $why }
cli-import-duplicate = το «{ $name }» υπάρχει ήδη στη γραμμή { $first } (τα ονόματα συγκρίνονται χωρίς πεζά-κεφαλαία και κενά): δεν καταχωρίστηκε κανείς
cli-import-already-entered = ο/η «{ $name }» είναι ήδη εγγεγραμμένος/η στο τουρνουά (`baffle player list`): δεν καταχωρίστηκε κανείς
cli-import-empty = το αρχείο δεν έχει κανέναν παίκτη κάτω από τη γραμμή των στηλών
cli-file-unreadable = δεν διαβάζεται το { $file }: { $why }
cli-file-unwritable = δεν γράφεται το { $file }: { $why }
cli-flight-main = κυρίως ταμπλό
cli-flight-consolation = ταμπλό παρηγοριάς
cli-flight-last-chance = ταμπλό τελευταίας ευκαιρίας
cli-format-knockout = νοκ-άουτ
cli-format-knockout-consolation = νοκ-άουτ με ταμπλό παρηγοριάς
cli-format-knockout-last-chance = νοκ-άουτ με ταμπλό παρηγοριάς και τελευταίας ευκαιρίας
cli-format-round-robin = { $cycles ->
    [one] πρωτάθλημα (όλοι με όλους)
   *[other] διπλό πρωτάθλημα (όλοι με όλους δύο φορές)
  }
cli-format-swiss = ελβετικό σύστημα { $rounds } γύρων
cli-format-length = ματς στους { $length } πόντους
cli-format-chess = σκάκι
cli-entrant-registered = εγγεγραμμένος
cli-entrant-approved = εγκρίθηκε
cli-entrant-checked-in = παρών
cli-entrant-out = εκτός
cli-pairing-waiting-for-round = ο γύρος δεν άρχισε
cli-pairing-waiting-for-table = περιμένει τραπέζι
cli-pairing-postponed = αναβλήθηκε
cli-pairing-playing = παίζεται
cli-pairing-decided = κρίθηκε
cli-draw-result-won = νίκη { $name } { $a }-{ $b }
cli-draw-result-drawn = ισοπαλία { $a }-{ $b }
cli-draw-result-unplayed = χωρίς αγώνα
cli-draw-head = { $name } ({ $id }): { $plan }· τραπέζια { $tables }
cli-draw-commitment = δέσμευση  { $hex }
cli-draw-seed = σπόρος    { $hex } (αποκαλύφθηκε με την κλήρωση, { $at })
cli-draw-seed-sealed = σπόρος    σφραγισμένος έως την κλήρωση
cli-draw-seeds = ισχυροί   { $list }
cli-draw-no-matches = κανένα ματς ακόμη: εγγράψτε τους παίκτες, δηλώστε την παρουσία τους και κάντε την κλήρωση (`baffle draw make { $id }`)
cli-draw-round-started = { $flight }, γύρος { $round }: άρχισε, τα ματς ορίστηκαν για τις { $at }
cli-draw-round-waiting = { $flight }, γύρος { $round }: δεν άρχισε (`baffle round start`)
cli-draw-bye = { $key }: ο/η { $name } (#{ $number }) προχωρά χωρίς ματς (bye)
cli-col-key = ΜΑΤΣ
cli-col-player-a = ΠΑΙΚΤΗΣ Α
cli-col-player-b = ΠΑΙΚΤΗΣ Β
cli-col-start = ΕΝΑΡΞΗ
cli-col-state = ΚΑΤΑΣΤΑΣΗ
cli-col-result = ΑΠΟΤΕΛΕΣΜΑ
cli-col-number = ΑΡ
cli-col-club = ΣΥΛΛΟΓΟΣ
cli-col-rating = ΒΑΘΜΟΛΟΓΙΑ
cli-col-flight = ΤΑΜΠΛΟ
cli-col-place = ΘΕΣΗ
cli-col-played = ΑΓΩΝΕΣ
cli-col-won = Ν
cli-col-lost = Η
cli-col-points = ΒΑΘΜΟΙ
cli-col-buchholz = BUCHHOLZ
cli-col-sb = SB
cli-col-for = ΥΠΕΡ
cli-col-against = ΚΑΤΑ
cli-players-none = δεν έχει εγγραφεί κανείς στο { $id } ακόμη: `baffle player add` ή `baffle player import`
cli-players-list-empty = ο κατάλογος παικτών του διακομιστή είναι κενός: το `baffle player new ID ΟΝΟΜΑ` προσθέτει έναν
cli-player-listed = ο παίκτης { $id } είναι στον κατάλογο του διακομιστή: εγγράψτε τον σε τουρνουά με `baffle player add ΤΟΥΡΝΟΥΑ --listed { $id }`
cli-col-rated-results = ΒΑΘΜΟΛΟΓΗΜΕΝΑ
cli-standings-none = το { $id } δεν έχει ακόμη βαθμολογία: έρχεται με τα πρώτα αποτελέσματα
cli-standings-still-in = συνεχίζει
cli-draw-opened = άνοιξε η κλήρωση του { $id }: { $plan }· η δέσμευση του σπόρου της κλήρωσης, που δημοσιεύεται τώρα, είναι { $commitment }
cli-draw-made = η κλήρωση έγινε με { $count } παίκτες· ο σπόρος της, που αποκαλύπτεται τώρα, είναι { $seed }
cli-draw-tables-set = τα τραπέζια είναι τώρα { $tables }
cli-draw-exported = γράφτηκαν { $count } εγγραφές στο { $file }: ελέγξτε τες με `baffle draw verify { $file }`
cli-players-registered = { $count ->
    [one] εγγράφηκε: { $list }
   *[other] εγγράφηκαν { $count }: { $list }
  }
cli-players-registered-approved = { $count ->
    [one] εγγράφηκε και εγκρίθηκε: { $list }
   *[other] εγγράφηκαν και εγκρίθηκαν { $count }: { $list }
  }
cli-players-approved = εγκρίθηκαν: { $list }
cli-players-checked-in = δήλωσαν παρουσία: { $list }
cli-players-none-to-approve = κανείς δεν περιμένει έγκριση: δεν στάλθηκε τίποτα
cli-players-none-to-check-in = κανείς εγκεκριμένος δεν περιμένει να δηλώσει παρουσία: δεν στάλθηκε τίποτα
cli-player-out = ο/η { $name } (#{ $number }) είναι εκτός: { $reason }
cli-player-out-playing = το { $key } ({ $match }, τραπέζι { $table }) παίζεται: κρίνεται στο τραπέζι του (baffle rule { $match } --reason "…" --article 2.2 forfeit-match A|B, και μετά baffle rule { $match } --reason "…" --article 4.6 confirm)· τους επόμενους αγώνες του τους κερδίζουν οι αντίπαλοί του χωρίς παιχνίδι
cli-player-renamed = ο παίκτης #{ $number } λέγεται τώρα { $name }
cli-round-started = { $flight }, ο γύρος { $round } άρχισε στις { $at }: { $count ->
    [one] δημιουργήθηκε ένα ματς
   *[other] δημιουργήθηκαν { $count } ματς
  }, τα υπόλοιπα μόλις ελευθερωθούν οι παίκτες τους και ένα τραπέζι
cli-pairing-ruled = { $key }: η απόφαση καταγράφηκε στο αρχείο του τουρνουά
cli-pairing-replaced = το { $key } είναι τώρα ο αγώνας { $new }: ο { $old } αντικαταστάθηκε (το αρχείο του μένει και δεν δέχεται άλλες εντολές) — baffle match show { $new }
cli-verify-chain = αλυσίδα  { $count } εγγραφές, ελέγχθηκε κάθε hash και κάθε σύνδεσμος· κεφαλή { $head }
cli-verify-end = τέλος    η τελευταία γραμμή δίνει τον ίδιο αριθμό εγγραφών και την ίδια κεφαλή
cli-verify-no-end = τέλος    λείπει η τελευταία γραμμή: το αρχείο ίσως κόπηκε ή εξήχθη ενώ το τουρνουά συνεχιζόταν
cli-verify-end-differs = η τελευταία γραμμή δίνει άλλον αριθμό εγγραφών ή άλλη κεφαλή από το αρχείο
cli-verify-seed = σπόρος   το SHA-256 του σπόρου που αποκαλύφθηκε είναι η δέσμευση του ανοίγματος { $commitment }
cli-verify-order = σειρά    η κλήρωση { $field } παικτών ({ $seeds } ισχυροί) υπολογίστηκε ξανά από τον σπόρο: ίδια σειρά
cli-verify-not-drawn = σπόρος   δεν έχει αποκαλυφθεί ακόμη (η κλήρωση δεν έγινε): δέσμευση { $commitment }
cli-verify-swiss = ελβετικό { $count } γύροι ζευγαρώθηκαν ξανά από τη βαθμολογία τους: ίδια ζευγάρια
cli-verify-matches = ματς     { $entrants } παίκτες, { $rounds } γύροι, { $assigned } ματς ελεγμένα το καθένα με την κλήρωση, { $results } αποτελέσματα με νικητή παίκτη του ματς, { $rulings } αποφάσεις
cli-verify-by-hand = ματς     { $matches } φτιαγμένα με το χέρι, το καθένα ελεγμένο με τα άλλα του γύρου του (ένα ανά τραπέζι και ανά ζευγάρι), { $replaced } αντικαταστάθηκαν με απόφαση
cli-verify-ok = ΕΠΑΛΗΘΕΥΤΗΚΕ: το αρχείο του τουρνουά { $id }
cli-verify-failed = ΔΕΝ ΕΠΑΛΗΘΕΥΤΗΚΕ: { $why }
cli-verify-head-bad = το --head παίρνει τα 64 δεκαεξαδικά ψηφία μιας κεφαλής
cli-verify-head-missing = το αρχείο δεν περνά από τη δημοσιευμένη κεφαλή { $head }: κόπηκε ή άλλαξε πριν από αυτήν
cli-verify-head-ok = το αρχείο περνά από τη δημοσιευμένη κεφαλή { $head }
cli-verify-bad-line = η γραμμή { $line } δεν είναι γραμμή εξαγωγής: { $why }
cli-verify-after-end = η γραμμή { $line } έρχεται μετά την τελευταία γραμμή
## the console's draw view
console-draw-title = κλήρωση — { $tournament }: { $format }
console-draw-format-knockout = νοκ-άουτ
console-draw-format-round-robin = όλοι με όλους
console-draw-format-swiss = ελβετικό σύστημα
console-draw-flight-main = κυρίως ταμπλό
console-draw-flight-consolation = ταμπλό παρηγοριάς
console-draw-flight-last-chance = τελευταία ευκαιρία
console-draw-none = αυτό το τουρνουά δεν έχει κλήρωση (ή δεν έχει έρθει ακόμη)
console-draw-not-made = η κλήρωση δεν έχει γίνει ακόμη
console-draw-round-now = { $flight }, γύρος { $round }: τώρα
console-draw-round-next = { $flight }, γύρος { $round }: επόμενος
console-draw-waiting-round = περιμένει τον γύρο { $round }
console-draw-waits-for-player = σε αναμονή: { $name } παίζει ακόμη το { $key } στο τραπέζι { $table }
console-draw-waits-for-table = περιμένει ελεύθερο τραπέζι
console-draw-waits-for-match = περιμένει νικητή { $key }
console-draw-waits-for-match-playing = περιμένει νικητή { $key } (τραπέζι { $table })
console-draw-postponed = αναβλήθηκε
console-draw-playing = παίζεται στο τραπέζι { $table }
console-draw-to-confirm = τέλος στο τραπέζι { $table }: προς επικύρωση
console-draw-won = νίκη: { $name } { $score }
console-draw-won-unplayed = νίκη χωρίς αγώνα: { $name }
console-draw-won-no-score = νίκη: { $name }
console-draw-drawn = ισοπαλία { $score }
console-draw-winner-of = νικητής του { $key }
console-draw-bye = { $name }: προκρίνεται χωρίς αγώνα
console-draw-waits-title = ποιος περιμένει ποιον
console-draw-wait-line = { $key }: { $what }
console-draw-wait-winner = { $key }: { $name } περιμένει τον νικητή του { $other } (παίζεται στο τραπέζι { $table })
console-draw-bracket-title = { $flight }: δέντρο αγώνων
console-draw-hint = v αίθουσα  ↑↓ κύλιση  R έναρξη γύρου  ? πλήκτρα  q έξοδος
console-todo-round-ready = { $flight }, ο γύρος { $round } είναι έτοιμος — έναρξη: R
console-do-start-round = έναρξη του γύρου { $round } ({ $flight }) τώρα
console-no-round-ready = κανένας γύρος δεν είναι έτοιμος: πρέπει να έχουν κριθεί όλα τα ματς του προηγούμενου
console-help-draw =
    v Tab   η κλήρωση και η αίθουσα, εναλλάξ (↑↓ κύλιση της κλήρωσης)
    R       έναρξη του γύρου που είναι έτοιμος (πρώτα ν/ο)

## A device's display (`baffle-device demo`): two short lines, as a clock's LCD
## shows them. The turn and the cube are baffle_i18n::turn's (turn-phase-*,
## cube-line*); phases and pauses reuse match-phase-*, turn-match-over,
## console-turn-game-over and console-status-paused.

device-match-to = στους { $length }
device-link-offline = [εκτός σύνδεσης]
device-link-stopped = [σταματημένη]
# A chess clock's move counter and period ("κ12 Π1"), and the colours' letters.
device-moves-period = κ{ $moves } Π{ $period }
device-white = Λ
device-black = Μ

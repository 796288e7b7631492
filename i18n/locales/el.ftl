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
paused = σταματημένο: { $reason }
penalty-points = { $name }: { $points ->
    [one] ένας πόντος ποινής
   *[other] { $points } πόντοι ποινής
  }
warnings = { $name }: { $count ->
    [one] μία παρατήρηση
   *[other] { $count } παρατηρήσεις
  }
result-won = νίκη: { $name } · { $how }
result-provisional = προσωρινό
result-confirmed = επικυρωμένο
pips = πούλια { $a } – { $b }
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
match-phase-waiting = αναμονή
match-phase-playing = σε εξέλιξη
match-phase-between-games = μεταξύ παρτίδων
match-phase-over = τέλος
turn-phase-opening = αρχική ζαριά
turn-phase-on-roll = { $name } ρίχνει
turn-phase-moving = { $name } παίζει { $dice }
turn-phase-double-offered = { $name } διπλασίασε

## Σύντομες μορφές, για τα κελιά των πινάκων της κονσόλας

turn-short-opening = αρχική
turn-short-on-roll = { $name } ρίχνει
turn-short-moving = { $name } παίζει
turn-short-double-offered = { $name } διπλ.
turn-short-over = τέλος
turn-match-over = τέλος ματς
match-end-kind-points = στους πόντους
match-end-kind-timeout = στον χρόνο
match-end-kind-penalty-points = με πόντους ποινής
match-end-kind-forfeit = με κατακύρωση
match-end-kind-director-decision = με απόφαση του Διευθυντή Αγώνων
game-kind-single = μονή
game-kind-gammon = διπλή
game-kind-backgammon = τριπλή
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
event-lateness-point = { $name } αργεί: πόντος ποινής υπέρ { $other }
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
event-dice-revealed = ο σπόρος των ζαριών αποκαλύφθηκε
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
  } υπέρ { $name }
ruling-other = απόφαση του Διευθυντή Αγώνων

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
dice-checking = έλεγχος των ζαριών…
dice-verified = και οι { $count } ζαριές επαληθεύτηκαν σε αυτόν τον φυλλομετρητή
dice-not-verified = ΔΕΝ ΕΠΑΛΗΘΕΥΤΗΚΑΝ: { $why }
seed-none = { $name }: χωρίς σπόρο
seed-none-required = { $name }: χωρίς σπόρο ακόμη (απαιτείται)
seed-committed = { $name }: σπόρος δεσμεύτηκε { $short }…
seed-revealed = { $name }: σπόρος αποκαλύφθηκε { $short }…
seed-code = ο κωδικός σας ως παίκτη
seed-add = προσθήκη του σπόρου μου
seed-added = ο σπόρος δεσμεύτηκε για { $side }
seed-failed = χωρίς σπόρο: { $error }

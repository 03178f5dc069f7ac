"""エンジェル&デーモン・ラミーの日本語カタログ。キーは en.py と完全に一致させる。"""

CATALOG: dict[str, str] = {
    # コマンド
    "cmd.rummy.name": "ラミー",
    "cmd.rummy.desc": "エンジェル&デーモン・ラミー：誰よりも早く手札でゴール形を作る(2～4人)",
    "cmd.rummy.new.desc": "このチャンネルでエンジェル&デーモン・ラミーのロビーを開きます",
    "cmd.rummy.rules.desc": "エンジェル&デーモン・ラミーのルールを読みます",
    "cmd.rummy.advanced.name": "上級ルール",
    "cmd.rummy.advanced": "上級ルール：赤字カードの条件、アイテム勝利、捨札ゴールの失点",
    "cmd.rummy.claim_seconds.name": "受付秒数",
    "cmd.rummy.claim_seconds": "捨札を取れる人が答える時間(5～300秒、標準20秒)",
    "cmd.rummy.match_games.name": "ショートゲーム数",
    "cmd.rummy.match_games": "1ゲームのショート・ゲーム数(1～50、標準は2～3人6回、4人8回)",
    # エラー(ルールの詳細コード。全ゲーム共通のものは共有カタログに)
    "rummy.error.illegal_move.not_in_field": "そのカードは場札にありません。",
    "rummy.error.illegal_move.not_goal_form": "手札がゴール形(スモールセット1つ+ビッグセット2つ)になっていません。",
    "rummy.error.illegal_move.no_open_set": "ゴールにはオープンしたセットが1つ以上必要です。",
    "rummy.error.illegal_move.ready_cannot_open": "レディ中はセットをオープンできません。",
    "rummy.error.illegal_move.ready_cannot_gain": "レディ中は捨札をゲインできません。",
    "rummy.error.illegal_move.not_a_big_set": "そのカードではビッグセットになりません。",
    "rummy.error.illegal_move.must_discard_taken": "レディ中です。テイクしたカードを捨ててください。",
    "rummy.error.illegal_move.already_ready": "すでにレディを宣言しています。",
    "rummy.error.illegal_move.ready_needs_open_set": "レディにはオープンしたセットが1つ以上必要です。",
    "rummy.error.illegal_move.not_ready_form": "レディは、残りの手札7枚があと1枚でゴール形になるときだけ宣言できます。",
    "rummy.error.illegal_move.not_ready": "他人の捨札でゴールできるのはレディ中の人だけです。",
    "rummy.error.illegal_move.own_discard_completes": "自分の捨札の列にゴール形を完成させるカードがあるため、捨札ではゴールできません。",
    "rummy.error.illegal_move.window_closed": "その捨札の受付は締め切られました。",
    "rummy.error.illegal_move.already_answered": "この受付にはすでに答えています。",
    "rummy.error.illegal_move.not_asked": "この捨札ではゴールもゲインもできないので、答えることはありません。",
    "rummy.error.illegal_move.not_offered_discard": "{card} は捨てるカードの候補にありません。",
    "rummy.error.bad_option.advanced": "上級ルールはオンかオフで指定してください。",
    "rummy.error.bad_option.claim_seconds": "受付時間は5～300秒にしてください。",
    "rummy.error.bad_option.match_games": "ショート・ゲーム数は1～50回にしてください。",
    "rummy.error.bad_option.target": "終了点数は1～999点にしてください。",
    # 名前
    "rummy.name": "エンジェル&デーモン・ラミー",
    "rummy.item.sword": "剣",
    "rummy.item.shield": "盾",
    "rummy.item.potion": "薬",
    "rummy.item.ring": "指輪",
    "rummy.ready": "レディ",
    "rummy.seconds": "{n}秒後",
    "rummy.option.advanced": "😈 上級ルール",
    "rummy.option.claim_seconds": "📣 捨札の受付:{count}秒",
    "rummy.option.match_games": "ショート・ゲーム {count} 回",
    "rummy.option.match_default": "ショート・ゲーム 6 回(2～3人)または 8 回(4人)",
    # 公開の卓
    "rummy.table.title": "{name} — ショート・ゲーム {game}/{games}",
    "rummy.table.to_take": "**{name}** が場札を1枚テイクします。",
    "rummy.table.to_act": "**{name}** がビッグセットをオープンするか、捨札します。",
    "rummy.table.to_act_ready": "**{name}**(レディ)がゴールするか、テイクしたカードを捨てます。",
    "rummy.table.window": "**捨札の受付**:**{name}** の捨てた {card} — 締切 {when}",
    "rummy.table.answer": "捨札の受付に答える",
    "rummy.table.ended": "**ショート・ゲーム {game} 終了。** {name} が手札の画面からショート・ゲーム {next} を配ります。",
    "rummy.table.field": "**場札** {cards} · 山札 **{count}** 枚",
    "rummy.table.hand_size": "手札 {count} 枚",
    "rummy.table.score": "**{count}** 点",
    "rummy.table.opened": "オープン:{sets}",
    "rummy.table.row": "捨札:{cards}",
    "rummy.table.legend": "{human} Human · {angel} Angel · {demon} Demon · {items} Item · {red} 赤字 · {ready} レディ",
    "rummy.table.target": "{count}点先取で勝ち",
    "rummy.result.title": "結果",
    "rummy.result.short_title": "ショート・ゲーム {game}",
    "rummy.result.goal_take": "🏆 **{name}** が {card} をテイクしてゴール!",
    "rummy.result.goal_discard": "🏆 **{name}** が {from_name} の捨札 {card} でゴール!",
    "rummy.result.hand": "手札:{sets}",
    "rummy.result.opened": "オープンしたセット:{sets} → **{points}**",
    "rummy.result.red": "赤字のカード:{cards} → **{points}**",
    "rummy.result.red_none": "赤字のカード:なし → **0**",
    "rummy.result.red_plain": "{card} +{points}",
    "rummy.result.red_condition": "{card}({condition}){mark} +{points}",
    "rummy.result.flip": "{card} +{points}",
    "rummy.result.bonus": "ボーナス・チェック:{flips} → **{points}**",
    "rummy.result.bonus_none": "ボーナス・チェック:なし(山札切れ) → **0**",
    "rummy.result.total": "**{name}** は **{count}** 点を得ます。",
    "rummy.result.loss": "{name} は自分の捨札でゴールされたため {count} 点を失います。",
    "rummy.result.deck_out": "ショート・ゲーム {game}:山札が尽きました — 得点なし。",
    "rummy.result.item_victory": "🗡️ **{name}** がItemだけのセットを3つオープンし、その場でゲーム全体の勝者です!",
    "rummy.result.item_sets": "オープンしたセット:{sets}",
    "rummy.result.summary": "ショート・ゲーム {game}:🏆 {name} +{points}(セット {sets} · 赤字 {red} · ボーナス {bonus})",
    "rummy.result.match_win": "🏆 **{names}** が {points}で勝利しました({games})。",
    "rummy.result.match_shared": "🏆 **{names}** が {points}で同点優勝です({games})。",
    "rummy.short_games": "ショート・ゲーム {count} 回",
    "rummy.result.match_item": "🗡️ **{names}** がショート・ゲーム {games} でアイテム勝利しました。",
    "rummy.result.standing": "{name}:{count} 点",
    "rummy.condition.ends": "1・7:全セットが1・7・Itemを使う",
    "rummy.condition.no_ends": "2・6:どのセットも1・7・Itemを使わない",
    "rummy.condition.three_open": "3・5:オープン3セット以上",
    "rummy.condition.one_attribute": "4:1つの属性とItemだけ",
    "rummy.condition.item": "Item:条件なし",
    # 手札
    "rummy.hand.title": "あなたの手札 — エンジェル&デーモン・ラミー",
    "rummy.hand.cards": "**手札**({n}枚):{cards}",
    "rummy.hand.opened": "あなたのオープン:{sets}",
    "rummy.hand.row": "あなたの捨札:{cards}",
    "rummy.hand.open_count": "オープン {n} セット",
    "rummy.hand.waiting": "{name} の手番を待っています。",
    "rummy.hand.your_take": "**あなたの手番** — 場札を1枚テイクしてください。",
    "rummy.hand.take": "{card} をテイク",
    "rummy.hand.your_act": "**あなたの手番** — ビッグセットをオープンして2枚引くか、捨てるカードを選んでください。",
    "rummy.hand.your_act_goal": "**あなたの手番** — 手札がゴール形です:**ゴール**するか、オープンか捨札を。",
    "rummy.hand.your_act_ready": "**あなたの手番** — レディ中です:テイクした {card} を捨ててください。",
    "rummy.hand.your_act_ready_goal": "**あなたの手番** — レディ中で {card} がゴール形を完成させます:**ゴール**するか、捨ててください。",
    "rummy.hand.goal": "ゴール!",
    "rummy.hand.open": "{cards} をオープン",
    "rummy.hand.choose_discard": "捨てるカードを選ぶ…",
    "rummy.hand.ready_possible": "レディ宣言できます",
    "rummy.hand.chosen": "{card} を捨てますか?",
    "rummy.hand.discard": "{card} を捨てる",
    "rummy.hand.discard_ready": "{card} を捨ててレディ宣言",
    "rummy.hand.window": "**捨札の受付**:**{name}** が {card} を捨てました。あなたはこれを取れます。取るかパスしてください — 締切 {when}",
    "rummy.hand.window_own": "**捨札の受付**:あなたの捨てた {card} を取れる人が答えています — 締切 {when}",
    "rummy.hand.window_answered": "**捨札の受付**:あなたの答えは **{answer}**。遅くとも {when} に締め切られます。",
    "rummy.hand.window_not_asked": "**捨札の受付**:**{name}** の捨てた {card} で、あなたはゴールもゲインもできないので、答えることはありません。受付が締め切られると(遅くとも {when})次へ進みます。",
    "rummy.hand.pass": "パス",
    "rummy.hand.claim_goal": "これでゴール!",
    "rummy.hand.gain": "{cards} でゲイン",
    "rummy.hand.next_button": "ショート・ゲーム {next} を配る",
    "rummy.hand.start_next": "ショート・ゲーム {next} はあなたから始まります。全員が得点を確認したら配ってください。",
    "rummy.hand.waiting_next": "{name} がショート・ゲーム {next} を配るのを待っています。",
    "rummy.answer.pass": "パス",
    "rummy.answer.goal": "ゴール",
    "rummy.answer.gain": "{cards} でゲイン",
    # イベント
    "rummy.event.dealt": "ショート・ゲーム {game}:各自 {count} 枚、場札 {cards}、山札 {deck} 枚。",
    "rummy.event.first_player": "ショート・ゲーム {game} は {seat} から始まります。",
    "rummy.event.field": "場札がなくなったので {cards} をめくりました。",
    "rummy.event.took": "{seat} が {cards} をテイクしました。",
    "rummy.event.opened": "{seat} が {cards} をオープンしました。",
    "rummy.event.drew": "{seat} が {count} 枚引きました。",
    "rummy.event.discarded": "{seat} が {cards} を捨てました。",
    "rummy.event.ready": "🎯 {seat} がレディを宣言しました!",
    "rummy.event.window_closed": "⏰ 時間切れ:捨札の受付を締め切りました。",
    "rummy.event.gained": "🤲 {seat} が {to_seat} の捨札をゲインし、{cards} をオープンしました。",
    "rummy.event.goal_take": "🏆 {seat} がゴール!",
    "rummy.event.goal_discard": "🏆 {seat} が {to_seat} の捨札でゴール!",
    "rummy.event.bonus": "ボーナス・チェック:{cards} → +{points}。",
    "rummy.event.bonus_empty": "山札がないのでボーナス・チェックはありません。",
    "rummy.event.scored": "{seat} が {count} 点を得ました(計 {score} 点)。",
    "rummy.event.lost_points": "{seat} が {count} 点を失いました(計 {score} 点)。",
    "rummy.event.deck_out": "山札が尽きました:ショート・ゲーム {game} は得点なしで終わります。",
    "rummy.event.item_victory": "🗡️ {seat} がItemのセットを3つオープンし、ゲーム全体の勝者です!",
    "rummy.event.match_over": "ゲーム終了。勝者:{names}。",
    "rummy.event.you_drew": "{cards} を引きました。",
    "rummy.event.you_answered": "あなたの答え:{answer}。",
    "rummy.event.claim_lost": "優先順位の高い取得があったため、あなたの取得は成立しませんでした。",
    # ルール
    "rummy.action.take": "場札の {card} をテイクする",
    "rummy.action.goal": "ゴールする",
    "rummy.action.goal_claim": "捨札の {card} でゴールする",
    "rummy.action.open": "{cards} をビッグセットとしてオープンし、2枚引く",
    "rummy.action.discard": "{card} を捨てる",
    "rummy.action.discard_ready": "{card} を捨ててレディ宣言する",
    "rummy.action.pass": "パスする",
    "rummy.action.gain": "捨札の {card} を {cards} でゲインし、2枚引く",
    "rummy.action.next": "ショート・ゲーム {next} を配る",
    "rummy.reason.wins_most_samples": "{move} 見えていないカードをいろいろに仮定して次の手番まで{count}回試し、手札がいちばん良い形になりました（評価 {score}/100）。",
    "rummy.reason.heuristic": "手札がいちばんゴールに近づき、助けになるまだ見えていないカードが多く、他の人に使われる危険がいちばん小さい手です。",
    "rummy.reason.completes_goal": "場のこのカードでゴール形が完成します。誰かの捨て札を待たずに、取ってすぐゴールしましょう。",
    "rummy.rules.intro": (
        "**目的** — 手札で「ゴール形」を作って先にゴールします：手札の8枚がちょうどスモールセット（2枚）1つ＋ビッグセット（3枚）2つで、オープンしたセットが1つ以上あるこ"
        "と。ゴールで得点し、規定回数のショート・ゲームが終わるか誰かが規定点数に達したら、最多得点の人の勝ちです。\n"
        "**手番** — (1) 場札を1枚テイク。ここでゴールできます。(2) 手札のビッグセットを1つオープンして2枚引くか、1枚捨てて自分の捨札の列に置きます（あと1枚でゴー"
        "ル形なら「レディ」を宣言できます）。\n"
        "**捨札の取得** — 捨札でレディの人のゴールが完成すればゴール、誰もゴールしなければ、その捨札と手札2枚でビッグセットを作れる人がゲインできます。\n"
        "**ショート・ゲームの終了** — 誰かがゴールするか、山札が切れたら（得点なし）終わります。"
    ),
    "rummy.rules.setup": (
        "**カード**（100枚）— 属性Human・Angel・Demonの表題1〜7が各4枚（赤字1枚・黒字3枚）、属性Item（（裁定）剣・盾・薬・指輪）が各4枚（赤字1枚）"
        "。表題が同じなら赤字も黒字もセットやボーナス・チェックでは同じカードです。\n"
        "**セット** — スモールセット：同じ属性・同じ表題の2枚。ビッグセット：グループ（同じ属性・同じ表題の3枚）またはラン（同じ属性で数字が連続する3枚。7と1はつながらず"
        "、Itemは不可）。\n"
        "**ゴール形** — （裁定）常に手札の8枚で、ちょうどスモールセット1つ＋ビッグセット2つ。オープンしたセットは別枠です。\n"
        "**ショート・ゲーム** — 各自7枚、場札は「参加人数+1枚」。最初のショート・ゲームの最初の人はランダム（開始時にホストが指定も可）、以降は前回の最初の人の左隣から。次"
        "のショート・ゲームはその最初の人が配ります。\n"
        "**ゲーム全体** — ショート・ゲーム6回（2〜3人）・8回（4人）か、誰かが24点（2人）・18点（3人）・12点（4人）以上で終了（どちらも卓の設定）。"
    ),
    "rummy.rules.turn": (
        "**1. テイク** — 場札を1枚手札に加えます（場札がなければ先に「参加人数+1枚」をめくります）。ここでゴールできます。\n"
        "**2. オープンか捨札** — 手札のビッグセットを1つ表向きにオープンして山札から2枚引く（この手番は捨札なし）か、1枚を表向きに自分の捨札の列へ捨てます。\n"
        "**レディ** — 捨てたあと手札7枚があと1枚でゴール形なら宣言できます。（裁定）オープンしたセットがあり、足りない1枚がまだ実在するときだけです。レディ中はオープンもゲ"
        "インもできず、テイクしたカードでゴールしないならそれを捨てます。\n"
        "**捨札の受付** — （裁定）捨札のたびに、そのカードでゴールかゲインができる人だけに同時にたずねます。取得できない人にはたずねません。全員が答えるか制限時間（標準20秒"
        "。AIはすぐ決めます）で締め切り、誰も取得できなければ受付は開きません。卓には受付中であることと残り時間だけが出て、誰がたずねられたかは出ません。早い者勝ちではなく、レディ"
        "した人のゴールがゲインより優先、同じなら捨てた人の次に近い人が優先です。ゲイン：その捨札と手札2枚でビッグセットをオープンして2枚引く（レディ中は不可）。公開されるのは成立"
        "した取得だけで、取られたカードは捨てた人の列から消えます。手番はゲインがあっても捨てた人の左隣へ。\n"
        "**ゴール** — 手札がゴール形、オープンしたセットが1つ以上、他人の捨札ならレディ済みであること。（裁定）ゴールはテイクの直後か、レディ中に他人の捨札が出たときだけです"
        "。\n"
        "**ここでの遊び方** — 手札の画面には合法な操作だけが出ます：テイクのボタン、ゴール、オープンのボタン、捨てるカード（レディできるときはレディも）。受付中は自分にだけ見"
        "える画面で取得かパスを選びます。"
    ),
    "rummy.rules.scoring": (
        "**得点** — ゴールした人は、オープンしたセット1つにつき1点、オープンしたセットと手札の赤字1枚につき1点。続いてボーナス・チェック：山札の一番上をめくり、オープンし"
        "たセットと手札の同じ属性・表題のカード1枚につき1点。（裁定）得点がある限り続け、山札がなくなれば終わりです。\n"
        "**山札切れ** — 場札の補充や、オープン・ゲイン後の2枚が引けなければ、得点なしでショート・ゲームが終わります（ちょうど使い切るのは可。ショート・ゲーム1回に数えます）"
        "。\n"
        "**ゲームの終了** — 規定回数のショート・ゲームが終わるか、誰かが規定点数に達した時点で終了。最多得点の人の勝ち、（裁定）同点なら全員の勝ちです。\n"
        "**上級ルール** — 赤字の条件、アイテム勝利、他人の捨札でのゴールによる失点は「バリエーション」のページにあります。"
    ),
    "rummy.rules.options": (
        "**上級ルール**（卓の設定）：\n"
        "・赤字は1点ではなく条件で得点します。全てのセット＝オープンしたセット＋手札のゴール形の3セット（ボットが最も得点の高い分け方を選びます）。1・7：全セットが1・7・Ite"
        "mのどれかを使えば2点。2・6：どのセットも使わなければ2点。3・5：オープン3セット以上で2点。4：全セットが1つの属性とItemだけなら5点。（裁定）赤字のItemは条"
        "件なしで1点。赤字はそれぞれ得点します。\n"
        "・（裁定）アイテム勝利：Itemだけのセットを3つ以上オープンした人が、その場でゲーム全体に勝利（オープンのたび、2枚引く前に判定）。\n"
        "・自分の捨札の列にゴールを完成させるカードがある間は、他人の捨札でゴールできません（取られたカードは数えない）。\n"
        "・他人の捨札でゴールされたら、捨てた人はその得点（ボーナス込み）を失います（0点未満にはならない）。"
    ),
    "rummy.rules.rulings": (
        "（裁定）**名前** — 原典に題名がないため、「エンジェル&デーモン・ラミー」はこのボットでの仮称です。\n"
        "（裁定）**Itemの表題** — Item16枚は絵の表題4種（剣・盾・薬・指輪）が各4枚（黒字3枚・赤字1枚）です。\n"
        "（裁定）**捨札の受付** — 捨札のたびに、そのカードでゴールかゲインができる人に同時にたずねます（卓のボタンと、本人にだけ見える案内）。取得できない人にはたずねず、答え"
        "ることもありません。全員が答えるか制限時間（標準20秒。AIはすぐ決めます）で締め切り、誰も取得できなければ受付は開きません。卓には受付中であることと残り時間だけが出て、誰"
        "がたずねられたかは出ません。優先順位はルールブックどおり：レディした人のゴールが先、次にゲイン。同じなら捨てた人の次に近い人が先です。\n"
        "（裁定）**ゴール形** — 常に手札の8枚です（オープンしたセットは別枠）。オープンやゲインの後の手札は7枚なので、ルールブックの「ここでゴールできます」はその時点では当"
        "てはまりません。ゴールはテイクの直後か、レディ中に他人の捨札が出たときだけです。\n"
        "（裁定）**レディ** — オープンしたセットが1つ以上ある人だけ（レディ中はオープンもゲインもできず、ゴールにはオープンしたセットが必要なため、ほかではゴールできません）"
        "、また足りない1枚がまだ実在するときだけ宣言できます。それ以外ではボットは選択肢に出しません。\n"
        "（裁定）**ボーナス・チェック** — 得点がある限り必ず続けます。山札がなければありません。\n"
        "（裁定）**同点** — ゲーム終了時に最多得点で並んだ人は全員の勝ちです。\n"
        "（裁定）**赤字のItem**（上級）— 条件なしで1点。\n"
        "（裁定）**アイテム勝利**（上級）— Itemだけのセットを3つ以上オープンした人が、その場でゲーム全体に勝利します。セットをオープンするたび（2枚引く前）に判定します。"
    ),
}

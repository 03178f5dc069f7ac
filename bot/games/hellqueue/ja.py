"""Japanese catalog of Hell Queue Club. Keys must match en.py exactly."""

CATALOG: dict[str, str] = {
    # Commands
    "cmd.hellqueue.name": "地獄キュー部",
    "cmd.hellqueue.desc": "地獄Queue部: 鬼ダイスを行列させてきれいな石を集める (3〜4人)",
    "cmd.hellqueue.new.desc": "このチャンネルで地獄Queue部のロビーを開く",
    "cmd.hellqueue.rules.desc": "地獄Queue部のルールを読む",
    # Errors (detail codes of the rules; those every game shares are in the shared catalog)
    "hellqueue.error.illegal_move.no_such_face": "アクティブカードに出目{face}のダイスがありません。",
    "hellqueue.error.illegal_move.no_card": "そこに配給所カードはありません。",
    "hellqueue.error.illegal_move.card_overflow": "その配給所にはそれだけのダイスを置けません: 合計が数字を超えます。",
    "hellqueue.error.illegal_move.bad_black_source": "その黒鬼ダイスは受け取れません。",
    "hellqueue.error.illegal_move.bad_wake": "そのダイスでは出目{face}を覚醒させられません。",
    "hellqueue.error.illegal_move.bad_die": "そのダイスはそのカードにありません。",
    "hellqueue.error.illegal_move.no_such_die": "そのダイスはあなたのカードにありません。",
    "hellqueue.error.illegal_move.nothing_to_recall": "回収できるダイスがありません。",
    "hellqueue.error.illegal_move.stone_gone": "その石はもうカードにありません。",
    # Names
    "hellqueue.name": "地獄Queue部",
    "hellqueue.colour.red": "赤",
    "hellqueue.colour.blue": "青",
    "hellqueue.colour.yellow": "黄",
    "hellqueue.colour.green": "緑",
    "hellqueue.stone.red": "赤",
    "hellqueue.stone.blue": "青",
    "hellqueue.stone.yellow": "黄",
    "hellqueue.stone.green": "緑",
    "hellqueue.stone.aqua": "水",
    "hellqueue.stone.white": "白",
    "hellqueue.size.large": "大鬼",
    "hellqueue.size.small": "小鬼",
    "hellqueue.size.black": "黒鬼",
    "hellqueue.where.active": "アクティブ",
    "hellqueue.where.sleep": "スリープ",
    # Public table
    "hellqueue.table.to_move": "▶ {marker} **{name}** の手番",
    "hellqueue.table.rerolling": "▶ {marker} **{name}** が振りなおすダイスを選んでいます",
    "hellqueue.table.picking": "▶ {marker} **{name}** が「**{number}**」の石を選んでいます",
    "hellqueue.table.still_to_pick": "残りの選択: {names}",
    "hellqueue.table.card": "**{number}** — {total}/{number} · {stones} · 山 {deck}",
    "hellqueue.table.card_done": "~~{number}~~ — 山切れ",
    "hellqueue.table.no_dice": "ダイスなし",
    "hellqueue.table.player": "{marker} **{name}** — ⭐ {score} · {stones}",
    "hellqueue.table.area": "アクティブ {active} · スリープ {sleep} · 休憩 {rest}",
    "hellqueue.table.supply": "ストック: 黒鬼 ⚫{black} · 休憩エリア ⚫{rest_black} · 石 {stones}",
    "hellqueue.table.legend": "5️⃣ 大鬼 · `5` 小鬼 · ⚫5️⃣ 黒鬼 · 🔴🔵🟡🟢 持ち主 · 石 🟥 赤 🟦 青 🟨 黄 🟩 緑 💠 水 ⬜ 白 · ⭐ 現在の最高得点",
    "hellqueue.result.title": "結果",
    "hellqueue.result.win": "🏆 {names} の勝ち ({count}点)。",
    "hellqueue.result.shared": "🏆 {names} が同点で勝利を分け合いました ({count}点)。",
    "hellqueue.result.line": "{marker} {name}: {count}点 · 残りダイス {dice}個",
    # Private panel
    "hellqueue.hand.title": "あなたのダイス — 地獄Queue部",
    "hellqueue.hand.your_turn": "**あなたの手番** — アクティブカードの出目を1つ選んでください。",
    "hellqueue.hand.your_turn_empty": "**あなたの手番** — アクティブカードは空です。",
    "hellqueue.hand.no_action": "できる行動がありません。",
    "hellqueue.hand.face_chosen": "出目 **{face}**: {dice} — 行動を選んでください。",
    "hellqueue.hand.reroll_prompt": "振りなおし: {dice} を休憩エリアに置きます。振りなおすダイス (スリープとアクティブの自分のダイス、黒鬼も可) を選んで「振りなおす」を押してください。",
    "hellqueue.hand.reroll_phase": "**あなたの手番** — 振りなおすダイスを選んで「振りなおす」を押してください。",
    "hellqueue.hand.reroll_chosen": "振りなおすダイス: {dice}",
    "hellqueue.hand.your_pick": "**あなたの選択** — 「**{number}**」のカードから石を取ってください (あと{n}個)。",
    "hellqueue.hand.waiting": "{name} を待っています。",
    "hellqueue.hand.waiting_pick": "{name} が石を選ぶのを待っています。",
    "hellqueue.hand.over": "ゲームは終わりました。",
    "hellqueue.hand.you": "{marker} あなた · ⭐ {score} · {stones}",
    "hellqueue.hand.active": "アクティブカード: {dice}",
    "hellqueue.hand.sleep": "スリープカード: {dice}",
    "hellqueue.hand.rest": "休憩エリア: 自分 {n} · 黒鬼 ⚫{black}",
    "hellqueue.hand.card": "**{number}** — {total}/{number} (あと{room}) · {stones} · {owners}",
    "hellqueue.hand.choose_face": "出目を選ぶ",
    "hellqueue.hand.face_option": "出目{face} · {count}個",
    "hellqueue.hand.face_option_desc": "大鬼 {large} · 小鬼 {small} · 黒鬼 {black}",
    "hellqueue.hand.queue": "行列 → {number} ({total}→{after})",
    "hellqueue.hand.queue_pays": "行列 → {number} ({total}→{after}: 配給!)",
    "hellqueue.hand.queue_steal": "行列 → {number}、{name} の ⚫{face} を奪う",
    "hellqueue.hand.queue_rest": "行列 → {number}、休憩エリアの ⚫ を取る",
    "hellqueue.hand.awaken": "覚醒 → {wake} を起こす ×{n}",
    "hellqueue.hand.awaken_none": "覚醒 → 何も起こさない",
    "hellqueue.hand.reroll": "振りなおし…",
    "hellqueue.hand.recall": "回収 ×{n}",
    "hellqueue.hand.back": "戻る",
    "hellqueue.hand.choose_dice": "振りなおすダイス (選ばなくても可)",
    "hellqueue.hand.die_option": "{size} {face}",
    "hellqueue.hand.reroll_go": "振りなおす ×{n}",
    "hellqueue.hand.pick_stone": "{name} (+{gain})",
    # Events
    "hellqueue.event.revealed": "「**{number}**」のカードが表に: {stones}",
    "hellqueue.event.deck_done": "「{number}」の山がなくなりました。",
    "hellqueue.event.first_player": "{seat} がスタートプレイヤーです。",
    "hellqueue.event.queued": "{seat} が {dice} を「**{number}**」に行列 ({total}/{number})。",
    "hellqueue.event.black_taken.supply": "{seat} が配給所の横から黒鬼を受け取りました。",
    "hellqueue.event.black_taken.rest": "{seat} が休憩エリアから黒鬼を受け取りました。",
    "hellqueue.event.black_stolen": "{to_seat} が {seat} から ⚫{face} を奪いました。",
    "hellqueue.event.no_black": "{seat} に渡す黒鬼がありません。",
    "hellqueue.event.rolled_black": "{seat} の黒鬼: {dice}",
    "hellqueue.event.rolled_reroll": "{seat} の振りなおし: {dice}",
    "hellqueue.event.rolled_recall": "{seat} の回収したダイス: {dice}",
    "hellqueue.event.rolled_none": "なし",
    "hellqueue.event.awakened": "{seat} が {dice} を休ませ、{wake} を{woken}個起こしました。",
    "hellqueue.event.awakened_none": "{seat} が {dice} を休ませました（眠っている {wake} はなく、何も起こしませんでした）。",
    "hellqueue.event.reroll_rested": "{seat} が {dice} を休ませて振りなおします。",
    "hellqueue.event.reroll_chosen": "{seat} が{count}個を振りなおします。",
    "hellqueue.event.recalled.rest": "{seat} が休憩エリアから{count}個を回収します。",
    "hellqueue.event.recalled.black": "{seat} が休憩エリアの黒鬼{count}個を回収します。",
    "hellqueue.event.recalled.cards": "{seat} が配給所から{count}個を回収します。",
    "hellqueue.event.payout": "💰 「**{number}**」がちょうどになりました: 配給!",
    "hellqueue.event.roll_off": "{seat} が「{number}」で順位決めの振りなおし: {sum}。",
    "hellqueue.event.placed": "{place}位 {seat}: {dice}個 · 大鬼 {large} · 合計 {sum} → 石 {stones}個",
    "hellqueue.event.picked": "{seat} が {stone} を取りました。",
    "hellqueue.event.returned": "石{count}個を石置き場に戻しました。",
    "hellqueue.event.scored": "{seat}: {count}点、残りダイス {dice_left}個。",
    "hellqueue.event.winner": "🏆 {seat} の勝ち!",
    "hellqueue.event.shared_win": "🏆 {seat} も同点で勝利!",
    # Rules
    "hellqueue.action.queue": "{dice} を「{number}」のカードに並べる（{total} → {after}）",
    "hellqueue.action.queue_steal": "{dice} を「{number}」のカードに並べ、{name} から ⚫{face} を取る（{total} → {after}）",
    "hellqueue.action.awaken": "{dice} を休ませて、眠っている {wake} を起こす（×{n}）",
    "hellqueue.action.awaken_none": "{dice} を休ませる（何も起こさない）",
    "hellqueue.action.reroll": "{dice} を休ませて、好きなダイスを振りなおす",
    "hellqueue.action.mark": "{where}の{size} {face} を{n}個、振りなおしに選ぶ",
    "hellqueue.action.roll": "選んだ{count}個のダイスを振る",
    "hellqueue.action.roll_none": "何も振りなおさない",
    "hellqueue.action.recall": "ダイスを回収する（×{n}）",
    "hellqueue.action.pick": "{stone}の石を取る（+{gain}）",
    "hellqueue.reason.wins_most_samples": "{move} 見えていない部分をいろいろに仮定して次の手番まで{count}回試し、いちばん有利な形になりました（評価 {score}/100）。",
    "hellqueue.reason.heuristic": "見えている卓で手を1つずつ試し、他のプレイヤーに対していちばん有利になる手です。",
    "hellqueue.rules.intro": (
        "**目的** — 配下の鬼（ダイス）を配給所に行列させて、きれいな石を集めます。得点がいちばん高い人の勝ち。3〜4人。\n"
        "**手番** — 行動を1つ。ダイスは必ずアクティブカードから、1種類の出目のダイスを全部まとめて置きます：**行列**（配給所の下へ。合計がカードの数字を超えないこと）、"
        "**覚醒**（休憩エリアへ置き、眠っているダイスを起こす）、**振りなおし**（休憩エリアへ置き、好きなダイスを振りなおす）。または休憩エリアからダイスを**回収**します"
        "。\n"
        "**配給** — ダイスの合計がちょうど数字になった配給所は、ただちに石を配ります（ダイスの多い順）。\n"
        "**終了** — 3つの山のうち2つが無くなったら終了。石は同じ色か全部違う色のグループで得点し、合計が最も高い人の勝ちです。"
    ),
    "hellqueue.rules.setup": (
        "**個人エリア** — 各プレイヤーは1色（赤・青・黄・緑、席順）：大鬼5個、小鬼10個、スリープカードとアクティブカード。最初に15個すべてを振り、大鬼はアクティブ、小鬼"
        "はスリープに置きます。\n"
        "**共通エリア** — 配給所カードの山が3つ（裏向き）：「8」5枚、「10」4枚、「12」3枚。各山の一番上を表にして石を載せます。その横に黒鬼ダイス5個と石置き場（赤・"
        "青・黄・緑・水・白 各10個）、少し離れて休憩エリア。\n"
        "**カードの石** — （裁定）8: RRW · BBR · YYB · GGY · AAG — 10: WWAR · WWGB · AAYR · AWBY — 12: "
        "RBYGAW · RRGGBW · YYBGAW（R 赤、B 青、Y 黄、G 緑、A 水、W 白）。\n"
        "**スタートプレイヤー** — （裁定）ホストが選ぶか、ボットがランダムに決めます。以降は席順です。"
    ),
    "hellqueue.rules.turn": (
        "**ダイスの置き方** — 1手番に1つだけ行動します。ダイスを置くときは必ずアクティブカードから、1種類の出目のダイスを全部まとめて置きます（大鬼・小鬼・黒鬼の区別なし）"
        "。\n"
        "**1. 行列** — 出目1種類を配給所1枚の下に置きます。置いた後の合計（全員分）がカードの数字以下のときだけ置けます。ダイスのない配給所に初めて置いたら黒鬼を1つ受け"
        "取ります：配給所の横から、無ければ休憩エリアか対戦相手のアクティブカードから（選べます）。振ってアクティブカードに置き、次の手番から使えます。（裁定）黒鬼がどこにも無ければ"
        "受け取りません。\n"
        "**2. 覚醒** — 出目1種類を休憩エリアに置き、スリープの同じ出目を全てアクティブに移します。2個以上置いたときは、代わりにスリープの好きな出目1種類を移せます。（裁"
        "定）何も移らなくてもできます。\n"
        "**3. 振りなおし** — 出目1種類を休憩エリアに置き、スリープとアクティブの自分のダイス（黒鬼を含む。同じ出目の一部だけでもよい）から好きな個数を選んで1回振りなおし"
        "ます。大鬼と黒鬼はアクティブ、小鬼はスリープへ。（裁定）0個でも構いません。ここでは1つの複数選択で選びます。\n"
        "**4. 回収** — 休憩エリアの自分のダイス全部とそこの黒鬼全部を回収して振りなおします（大鬼と黒鬼はアクティブ、小鬼はスリープへ）。自分のダイスが無く黒鬼があれば黒鬼"
        "だけ。どちらも無くアクティブカードが空なら、全ての配給所から自分のダイス（黒鬼を含む）を回収して振りなおします。"
    ),
    "hellqueue.rules.scoring": (
        "**配給** — 配給所のダイスの合計がちょうど数字になったら、ただちに配給します。順位はダイスの多い順、同数なら大鬼（黒鬼を含む）の多い順、次に出目の合計、それでも同じな"
        "ら該当者がそこのダイスを振りなおして決めます。（裁定）石の獲得が懸かっているときだけです。\n"
        "**石** — 獲得数は「12」3/2/1個、「10」2/1/1個、「8」2/1/–個、4位はなし。順位の順に1個ずつ石を選びます。（裁定）ボットがあなたに尋ねます。AIは"
        "自分で選びます。残りが1色なら自動で取ります。残った石は石置き場へ、ダイスは休憩エリアへ移り、その山の次のカードを表にします。\n"
        "**終了** — 3つの山のうち2つが無くなった時点で終了します。\n"
        "**得点** — 石をグループに分けます。各グループは同じ色だけ、または全て違う色。いちばん高くなる分け方はボットが計算します。1〜6個のグループは、違う色なら "
        "1/3/6/10/15/21点、同じ色なら 1/3/6/12/20/30点。（裁定）同じ色7個以上は n × (n − 1) 点（42、56、…）。\n"
        "**勝者** — 得点の最も高い人。同点ならアクティブとスリープに残ったダイスの多いほう。（裁定）アクティブカードの黒鬼も数えます。（裁定）それでも同じなら全員の勝ちです。"
    ),
    "hellqueue.rules.rulings": (
        "（裁定）**人数とスタートプレイヤー** — 3〜4人（製品の人数）。ルールブックのスタートプレイヤー（最も最近、地獄谷温泉に行った人）は、ここではホストが選ぶか、ボットが"
        "ランダムに決めます。\n"
        "（裁定）**カードの石** — カードの面はルールブックにないため、各カードには順位の獲得数ちょうどの石を載せます。8: RRW · BBR · YYB · GGY · "
        "AAG — 10: WWAR · WWGB · AAYR · AWBY — 12: RBYGAW · RRGGBW · YYBGAW（R 赤、B 青、Y 黄、G 緑、A "
        "水、W 白）。\n"
        "（裁定）**石の選択** — 順位の順に、ボットが各プレイヤーに取る石を1個ずつ尋ねます。AIは自分で選びます。残りが1色なら自動で取ります。\n"
        "（裁定）**同じ色7個以上** — n × (n − 1) 点（42、56、…。ルールブックの表は6個まで）。\n"
        "（裁定）**同点：残りダイス** — アクティブカードの黒鬼も数えます。\n"
        "（裁定）**それでも同点** — 全員の勝ち（ルールブックでは虎縞の下着で決めます）。\n"
        "（裁定）**まれな場合** — 何も移らない覚醒もできます。黒鬼がどこにも無ければ（配給所の横・休憩エリア・対戦相手のアクティブカード）、空の配給所に初めて置いても受け取り"
        "ません。振りなおしは0個でも構いません。配給の同点の振りなおしは、石の獲得が懸かっているときだけ行います。"
    ),
}

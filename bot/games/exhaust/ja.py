"""イグゾーストの日本語カタログ。キーは en.py と完全に一致させる。"""

CATALOG: dict[str, str] = {
    # コマンド
    "cmd.exhaust.name": "イグゾースト",
    "cmd.exhaust.desc": "イグゾースト：魔力が尽きるまで魔法を唱え続けるカードゲーム（1～5人）",
    "cmd.exhaust.new.desc": "このチャンネルでイグゾーストのロビーを開きます（1人ならNPCとのソロ）",
    "cmd.exhaust.rules.desc": "イグゾーストのルールを読みます",
    "cmd.exhaust.long_game.name": "長時間ルール",
    "cmd.exhaust.long_game": "長時間ルール：複数回ゲームを行い、枯渇カード2枚で全体の敗者",
    "cmd.exhaust.npc_size.name": "npc枚数",
    "cmd.exhaust.npc_size": "ソロ：NPCの山の枚数（5～49。省略時はあなたのレベル、最初は15）",
    # エラー（ルールの詳細コード）
    "exhaust.error.illegal_move.no_cards": "カードを1枚以上選んでください。",
    "exhaust.error.illegal_move.duplicate_card": "同じカードが2回選ばれています。",
    "exhaust.error.illegal_move.unknown_card": "それはスペルカードではありません。",
    "exhaust.error.illegal_move.copy_alone": "コピーカードだけでは出せません。数字カードと一緒に出してください。",
    "exhaust.error.illegal_move.copy_target_missing": "各コピーカードがどのカードをコピーするか選んでください。",
    "exhaust.error.illegal_move.bad_copy_target": "コピーカードは一緒に出す数字カードしかコピーできません。",
    "exhaust.error.illegal_move.wrong_count": "このコンボはちょうど {count} 枚で出します。",
    "exhaust.error.illegal_move.wrong_colour": "そのカードはこのシングルの色ではありません。",
    "exhaust.error.illegal_move.numbers_differ": "このコンボは同じ数字のカードで出します。",
    "exhaust.error.illegal_move.number_too_low": "数字が足りません：このコンボには {need} 以上が必要です。",
    "exhaust.error.illegal_move.too_few_cards": "枚数が足りません：このコンボには {need} 枚以上が必要です。",
    "exhaust.error.illegal_move.not_consecutive": "ストレートは連続した数字で出します（抜け・重複・1周は不可）。",
    "exhaust.error.illegal_move.colours_differ": "フラッシュは同じ色のカードで出します。",
    "exhaust.error.illegal_move.no_time_card": "時間魔法カードを持っていません。",
    "exhaust.error.illegal_move.no_depletion_card": "裏返せる表向きの枯渇カードがありません。",
    "exhaust.error.illegal_move.bad_combo": "そのコンボは卓にありません。",
    "exhaust.error.bad_option.npc_size": "NPCの山は5～49枚にしてください。",
    "exhaust.error.bad_option.long_game": "長時間ルールはオンかオフで指定してください。",
    # 名前
    "exhaust.name": "イグゾースト",
    "exhaust.npc": "🤖 NPC",
    "exhaust.copy": "コピー",
    "exhaust.combo.single": "シングル",
    "exhaust.combo.pair": "ペア",
    "exhaust.combo.three": "3カード",
    "exhaust.combo.four": "4カード",
    "exhaust.combo.straight": "ストレート",
    "exhaust.combo.flush": "フラッシュ",
    "exhaust.combo.any": "エニー",
    "exhaust.need.number": "{n}以上",
    "exhaust.need.none": "終了（15が出ています）",
    "exhaust.need.count": "{count}枚以上",
    "exhaust.option.long_game": "🪫 長時間ルール：枯渇カード2枚で全体の敗者",
    "exhaust.option.npc_size": "🤖 1人なら：NPCの山 {count} 枚でソロ",
    "exhaust.option.solo": "ソロ：NPCの山 {count} 枚",
    # 公開の卓
    "exhaust.table.title_long": "{name} — 第{game}ゲーム",
    "exhaust.table.combo": "**{name}** — {cards}（{plays}回目） → 次：**{need}**",
    "exhaust.table.combo_empty": "**{name}** — なし → 次：**{need}**",
    "exhaust.table.piles_title": "山",
    "exhaust.table.piles": "補充用カードの山：**{refill}** · ⏳ 時間魔法カードの山：**{time}**",
    "exhaust.table.depletion_pile": "🪫 枯渇カードの山：**{n}**",
    "exhaust.table.players": "プレイヤー",
    "exhaust.table.cards": "{count}枚",
    "exhaust.table.npc": "**{name}** — 手札スペース：{hand} · 山：{count}枚",
    "exhaust.table.next_title": "次のゲーム",
    "exhaust.table.next": "第{game}ゲームで敗北した{name}が第{next}ゲームを始めます（手札の「第{next}ゲームを開始」を押してください）。",
    "exhaust.table.legend": "🔥 赤 · 💧 青 · 🌪️ 黄 · 🌱 緑 · 📜 コピー · ⏳ 時間魔法 · 🪫 枯渇",
    "exhaust.depletion.face_up": "表向き{n}枚",
    "exhaust.depletion.flipped": "裏向き{n}枚",
    "exhaust.result.title": "結果",
    "exhaust.result.game": "💀 **{loser}** は魔法を唱えられず落第です。🎓 勝者：{winners}。",
    "exhaust.result.match": "💀 **{loser}** が枯渇カード2枚となり、{count}ゲームを終えて全体の敗者です。🎓 勝者：{winners}。\n枯渇カード：{tally}",
    "exhaust.result.solo_win": "🎉 山{pile}のNPCに勝利！次回は **{next}** です。",
    "exhaust.result.solo_loss": "💀 NPC（山{pile}）の勝ちです。次回は **{next}** です。",
    # 手札
    "exhaust.hand.title": "あなたの手札 — イグゾースト",
    "exhaust.hand.empty": "手札はありません。",
    "exhaust.hand.time": "⏳ 時間魔法：{n}",
    "exhaust.hand.your_turn": "**あなたの手番** — コンボにスペルカードを出すか、時間魔法カードを使ってください。",
    "exhaust.hand.waiting": "{name} の手番を待っています。",
    "exhaust.hand.start_next": "**前のゲームで敗北した**ので、あなたが第{next}ゲームを始めます。",
    "exhaust.hand.next_button": "第{next}ゲームを開始",
    "exhaust.hand.waiting_next": "{name} が第{next}ゲームを始めるのを待っています。",
    "exhaust.hand.no_spell": "どのコンボにもカードを出せません。時間魔法カードを使うか、枯渇カードを裏返してください。",
    "exhaust.hand.choose_combo": "1. コンボを選ぶ",
    "exhaust.hand.combo_option": "一番上：{top} · 次：{need}",
    "exhaust.hand.combo_option_empty": "なし · 次：{need}",
    "exhaust.hand.choose_cards": "2. 出すカードを選ぶ",
    "exhaust.hand.choose_cards_for": "**{combo}** に出すカードを選んでください。",
    "exhaust.hand.chosen": "**{combo}** に出すカード：{cards}",
    "exhaust.hand.copy_prompt": "3. コピーカード {n}/{of} 枚目がコピーするカードを選んでください。",
    "exhaust.hand.copy_placeholder": "3. コピーカード {n}/{of} のコピー先…",
    "exhaust.hand.ready": "✅ 準備完了：「出す」を押してください。",
    "exhaust.hand.play": "{count}枚出す",
    "exhaust.hand.use_time": "時間魔法を使う",
    "exhaust.hand.flip": "枯渇カードを裏返す",
    "exhaust.hand.clear": "選び直す",
    # 出来事
    "exhaust.event.dealt": "第{game}ゲーム：各{count}枚ずつ配りました。補充用の山は{refill}枚。",
    "exhaust.event.dealt_solo": "第{game}ゲーム：あなたに{count}枚、NPCの山に{npc_pile}枚配りました。補充用の山は{refill}枚。",
    "exhaust.event.first_player": "{seat} が第{game}ゲームのスタートプレイヤーです。",
    "exhaust.event.played": "{seat} が {combo} に {cards} を出しました。",
    "exhaust.event.reward_spell": "{seat} が補充用の山から1枚引きました（ペアの報酬）。",
    "exhaust.event.reward_none.spell": "補充用の山が空なので、{seat} はカードをもらえません。",
    "exhaust.event.reward_none.time": "時間魔法カードの山が空なので、{seat} はもらえません。",
    "exhaust.event.reward_time": "{seat} が時間魔法カードを{count}枚獲得しました。",
    "exhaust.event.reward_time_short": "{seat} が時間魔法カードを{count}枚獲得しました（{due}枚のうち残りは{count}枚でした）。",
    "exhaust.event.used_time": "{seat} が時間魔法カードを使いました。",
    "exhaust.event.flipped": "{seat} が枯渇カードを裏返しました。",
    "exhaust.event.next_game": "{seat} が第{game}ゲームを始めます。",
    "exhaust.event.npc_filled": "NPCが手札スペースを補充：{cards}",
    "exhaust.event.npc_drew": "NPCは出せないので {cards} を引きました。",
    "exhaust.event.npc_played": "NPCが {combo} に {cards} を出しました。",
    "exhaust.event.npc_reward_spell": "NPCはカードを1枚、裏向きのまま山の一番上に置きました（ペアの報酬）。",
    "exhaust.event.npc_reward_none.spell": "補充用の山が空なので、NPCはカードをもらえません。",
    "exhaust.event.npc_reward_none.time": "時間魔法カードの山が空なので、NPCはもらえません。",
    "exhaust.event.npc_reward_time": "NPCが時間魔法カードを{count}枚獲得しました。",
    "exhaust.event.npc_reward_time_short": "NPCが時間魔法カードを{count}枚獲得しました（{due}枚のうち残りは{count}枚でした）。",
    "exhaust.event.npc_used_time": "NPCが時間魔法カードを使いました。",
    "exhaust.event.npc_lost": "NPCはもう何もできません。魔力切れです！",
    "exhaust.event.loser": "{seat} は行動できず、第{game}ゲームに敗北しました！",
    "exhaust.event.depletion": "{seat} が枯渇カードを受け取りました（{count}枚目）。",
    "exhaust.event.match_loser": "{seat} は枯渇カードが2枚になり、全体の敗者です！",
    "exhaust.event.you_drew": "補充用の山から {cards} を引きました。",
    # ルール
    "exhaust.stats.level": "レベル{n}",
    "exhaust.stats.solo_wins": "ソロ勝利{count}回",
    "exhaust.history.solo_win": "🎉 レベル{n}のNPCに勝利",
    "exhaust.history.solo_loss": "💀 レベル{n}のNPCに敗北",
    "exhaust.history.loser": "💀 {name} が落第、ほかの全員が生き残り",
    "exhaust.hand.empty_other": "手札なし",
    "exhaust.action.play": "{combo} に {cards} を出す",
    "exhaust.action.time": "時間魔法カードを1枚山に戻す",
    "exhaust.action.flip": "枯渇カードを裏返す",
    "exhaust.action.next": "第{next}ゲームを始める",
    "exhaust.reason.only_move": "できることはこれだけです。",
    "exhaust.reason.next_game": "前のゲームで負けたので、次のゲームはあなたから始めます。",
    "exhaust.reason.spends_time_card": "時間魔法カードを戻せば、呪文カードをすべて後に残せます。",
    "exhaust.reason.flips_depletion": "裏返すのは一度きりのパスで、カードを1枚も使いません。",
    "exhaust.reason.blocks_single": "シングルに15を出すと閉じて、もう誰も出せなくなります。",
    "exhaust.reason.single": "シングルに1枚出すのがいちばん安い手です。",
    "exhaust.reason.pair_draws_card": "ペアなら補充用の山から1枚引けます。",
    "exhaust.reason.earns_time_card": "この手で時間魔法カードが1枚もらえます。",
    "exhaust.reason.earns_two_time_cards": "4カードなら時間魔法カードが2枚もらえます。",
    "exhaust.reason.no_reward_left": "報酬の山は空ですが、手札を減らせます。",
    "exhaust.rules.intro": (
        "**目的** — 魔力が尽きるまで魔法を唱え続けます。先に行動できなくなった1人だけが敗北し、ほかの全員が勝者です。\n"
        "**手番** — 次のどちらか1つだけ：**A** 1つのコンボにそのルールどおりスペルカードを1枚以上出す（シングル・ペア・3カード・4カードは出ている数字より大きく、ス"
        "トレート・フラッシュ・エニーは前回より多い枚数）。**B** 自分の時間魔法カード⏳を1枚山に戻す。報酬のあるコンボもあります。\n"
        "**終了** — どちらもできなければその場で敗北、ゲーム終了です。\n"
        "**バリエーション** — 何回も戦う長時間ルールと、NPCと戦うソロ。"
    ),
    "exhaust.rules.setup": (
        "**カード** — スペルカード64枚：赤🔥・青💧・黄🌪️・緑🌱の1～15と、コピーカード📜4枚。時間魔法カード⏳16枚は共通の山にし、最初は誰も持っていません。\n"
        "**コンボ** — 場にそれぞれの置き場があります：シングル（1～2人は全色共通の1枚、3人は赤・黄と青・緑の2枚、4～5人は各色1枚ずつ）、ペア、3カード、4カード、スト"
        "レート、フラッシュ、エニー。\n"
        "**配り方** — （裁定）2～4人は各15枚、5人は各12枚。残りは裏向きの【補充用カードの山】です。\n"
        "**スタートプレイヤー** — （裁定）ランダム（開始時にホストが選ぶこともできます）。以降は席順です。"
    ),
    "exhaust.rules.turn": (
        "**A スペルカードを出す** — コンボを1つ選び、手札から出します：\n"
        "・シングル：そのコンボの色のカード1枚。ペア／3カード／4カード：同じ数字を2／3／4枚。\n"
        "・ストレート：連続した数字を3枚以上（色は自由、1周はしない）。フラッシュ：同じ色を3枚以上。エニー：何でも3枚以上（ほかのコンボに出せるカードでも構いません）。\n"
        "**制限** — シングル・ペア・3カード・4カードは数字制限：そのコンボに出ているどのカードよりも大きい数字。ストレート・フラッシュ・エニーは枚数制限：最初は3枚以上、以"
        "降は1つ前にそのコンボに出された枚数より多く。\n"
        "**報酬** — ペア：補充用の山から1枚引く。3カード・ストレート・フラッシュ・エニー：時間魔法カード1枚。4カード：2枚。シングル：なし。山が空ならもらえません。（裁定"
        "）2枚もらえるときに1枚しか残っていなければ1枚だけもらいます。\n"
        "**コピーカード** — 単独では出せません。一緒に出した数字カードのうち、あなたが選んだ1枚と色も数字も同じになります。（裁定）1回に複数枚のコピーカードを出しても構いま"
        "せん。コピーはすべてのルールでそのカードとして扱います。\n"
        "**B 時間魔法** — 自分の時間魔法カードを1枚山に戻します（Aができるときも選べます）。\n"
        "**操作** — 手札でコンボを選び、カードを選び、コピーカードがあればコピー先を選んで「出す」を押します。"
    ),
    "exhaust.rules.options": (
        "**長時間ルール** — ゲームを複数回行います。各ゲームの敗者は枯渇カード🪫を1枚受け取り、2枚になった人が全体の敗者、ほかの全員が勝者です。表向きの枯渇カードを持つ人は"
        "3つ目の行動 **C** それを裏返す（1回だけのパス）ができます。（裁定）裏返したカードは全体が終わるまで裏向きのままです。次のゲームは前のゲームの敗者から始めます。\n"
        "**ソロ** — 1人でNPCと対戦します。シングルは全色共通の1枚。あなたは15枚を受け取り先手です。NPCの山はN枚：あなたのレベル（最初は15、勝つたびに+1。ボット"
        "が覚えています。`npc枚数` で変更可）。NPCの手番の前に、山から表向きの手札スペースを5枚まで補充します。\n"
        "**NPCの手番** — シングル＞4カード＞3カード＞ペア＞ストレート＞フラッシュ＞エニーの順に試し、最初に出せるものを数字の低いものから出します。（裁定）ストレート・フ"
        "ラッシュ・エニーは必要な最小枚数で、コピーカードはほかに何も出せないときだけ使い、同等の選択肢はランダムです。出せなければ山から1枚ずつ引いて（手札スペースは5枚を超えても"
        "よい）再確認し、山が尽きたら時間魔法カードを使い、それもなければNPCの負け＝あなたの勝ちです。NPCの時間魔法カードはNPCカードの上に、スペルカードの報酬は裏向きのまま"
        "山の一番上に置きます。補充用の山は両方に配った残りです。"
    ),
    "exhaust.rules.rulings": (
        "（裁定）**報酬** — 時間魔法カードを2枚もらえるときに山に1枚しか残っていなければ、その1枚をもらいます。\n"
        "（裁定）**コピーカード** — 1回に複数枚出しても構いません。どれもすべてのルールでコピー先のカードとして扱います。\n"
        "（裁定）**配り方** — 2～4人は各15枚、5人は各12枚。配った残りが、ペアの報酬で引く裏向きの【補充用カードの山】になります。\n"
        "（裁定）**スタートプレイヤー** — ランダム（開始時にホストが選ぶこともできます）。\n"
        "（裁定）**長時間ルール** — 裏返した枯渇カードは全体が終わるまで裏向きのまま。次のゲームは前のゲームの敗者から始めます。\n"
        "（裁定）**NPC**（ソロ）— ストレート・フラッシュ・エニーには必要な最小枚数を出し、コピーカードはほかに何も出せないときだけ使います。ルールブックでプレイヤーが選ぶと"
        "される同等の選択肢は、ボットがランダムに選びます。"
    ),
    "exhaust.ratings.npc": "🤖 NPC（レベル{n}）",
}

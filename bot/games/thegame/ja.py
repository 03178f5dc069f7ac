"""Japanese catalog of The Game. Keys must match en.py exactly."""

CATALOG: dict[str, str] = {
    "cmd.thegame.name": "ザゲーム",
    "cmd.thegame.desc": "ザ・ゲーム：1～5人の協力型カードゲーム",
    "cmd.thegame.new.desc": "このチャンネルでザ・ゲームのロビーを開きます",
    "cmd.thegame.rules.desc": "ザ・ゲームのルールを読みます",
    "cmd.thegame.on_fire.name": "オンファイア",
    "cmd.thegame.on_fire": "オン・ファイア：青いカードは次の手番終了までに覆うこと",
    "cmd.thegame.min_three.name": "最低3枚",
    "cmd.thegame.min_three": "上級：山札がある間は1手番に3枚以上プレイ",
    "cmd.thegame.smaller_hand.name": "手札1枚減",
    "cmd.thegame.smaller_hand": "上級：手札を1枚減らす",
    "thegame.error.illegal_move.cannot_place": "{card} はその結界に置けません。",
    "thegame.error.illegal_move.minimum_not_met": "この手番では少なくとも {count} 枚プレイしてください。",
    "thegame.error.illegal_move.signal_unchanged": "そのサインはすでにその状態です。",
    "thegame.name": "ザ・ゲーム",
    "thegame.option.on_fire": "🔥 オン・ファイア",
    "thegame.option.min_three": "1手番に最低3枚",
    "thegame.option.smaller_hand": "手札1枚減",
    "thegame.pile.0": "昇順1",
    "thegame.pile.1": "昇順2",
    "thegame.pile.2": "降順1",
    "thegame.pile.3": "降順2",
    "thegame.table.pile": "{arrow} **{name}**：**{top}**（{count}枚）",
    "thegame.table.counts": "カード",
    "thegame.table.counts_value": "山札：**{draw}**枚・未配置：**{left}**枚",
    "thegame.table.players": "プレイヤー",
    "thegame.table.seat": "{name} — 手札{count}枚",
    "thegame.table.must_play": "あと{n}枚プレイ",
    "thegame.table.may_end": "手番を終了できます",
    "thegame.table.on_fire": "🔥 オン・ファイア",
    "thegame.table.burn_warning": "{pile} の青い {card} をこの手番中に覆ってください！",
    "thegame.table.legend": "🚫 ここには置かないで・⚠️ ここで大きく飛ばさないで",
    "thegame.result.title": "結果",
    "thegame.result.perfect": "完全勝利！ 98枚すべてを置ききりました。",
    "thegame.result.win": "勝利 — 残り{count}枚。",
    "thegame.result.loss": "敗北 — 残り{count}枚。",
    "thegame.result.burned": "炎上 — 青いカードが一番上に残りました。残り{count}枚で敗北。",
    "thegame.signal.option": "{pile}：「{signal}」を{action}",
    "thegame.signal.no_play": "ここには置かないで",
    "thegame.signal.no_jump": "ここで大きく飛ばさないで",
    "thegame.signal.set": "お願いする",
    "thegame.signal.clear": "取り消す",
    "thegame.signal.placeholder": "結界へのサイン（数字は伝えられません）",
    "thegame.hand.title": "あなたの手札",
    "thegame.hand.empty": "手札はありません。",
    "thegame.hand.your_turn": "**あなたの手番** — あと{n}枚以上プレイしてください。",
    "thegame.hand.may_end": "**あなたの手番** — さらにプレイするか、手番を終了できます。",
    "thegame.hand.waiting": "{name} の手番です。",
    "thegame.hand.choose_card": "プレイするカードを選ぶ",
    "thegame.hand.play_on": "{card} を {pile}（{top}）へ",
    "thegame.hand.end_turn": "手番終了",
    "thegame.event.dealt": "カードを{size}枚ずつ配りました。",
    "thegame.event.first_player": "{seat} から始めます。",
    "thegame.event.played": "{seat} が {card} を {pile} に置きました。",
    "thegame.event.turn_ended": "{seat} が手番を終え、{drew}枚引きました。",
    "thegame.event.skipped": "{seat} は手札がないので飛ばします。",
    "thegame.event.signal_on": "{seat} のお願い：{pile}「{signal}」",
    "thegame.event.signal_off": "{seat} が {pile} の「{signal}」を取り消しました。",
    "thegame.event.stuck": "{seat} は必要な枚数をプレイできません。ゲーム終了です。",
    "thegame.event.burned": "🔥 {pile} の青い {card} が覆われませんでした！",
    "thegame.event.you_drew": "{cards} を引きました。",
    "thegame.stats.left": "残り{count}枚",
    "thegame.stats.perfect": "完全勝利{count}回",
    "thegame.hand.empty_other": "手札なし",
    "thegame.action.play": "{card} を {pile}（いま {top}）へ出す",
    "thegame.action.end": "手番を終えて手札を補充する",
    "thegame.action.signal_on": "{pile} に「{signal}」とお願いする",
    "thegame.action.signal_off": "{pile} の「{signal}」を取り消す",
    "thegame.reason.only_move": "出せるカードはこれだけです。",
    "thegame.reason.minimum_met": "必要な枚数は出しました。残したカードは後で役に立ちます。",
    "thegame.reason.asks_no_play": "その山に出したいカードを持っているので、他の人に空けておいてもらいます。",
    "thegame.reason.clears_signal": "そのお願いはもう要りません。",
    "thegame.reason.covers_fire": "この手番の終わりに燃えてしまう青いカードを覆います。",
    "thegame.reason.trick_minus_ten": "ちょうど10小さいカードで山を戻せます（±10の技）。",
    "thegame.reason.trick_plus_ten": "ちょうど10大きいカードで山を戻せます（±10の技）。",
    "thegame.reason.next_number": "数字を1つも飛ばしません。",
    "thegame.reason.smallest_jump": "まだ必要な数字をいちばん飛ばさずにすみます。",
    "thegame.rules": (
        "**目的** — 全員で協力して、98枚のカード（2～99）をできるだけ多く4つの結界に置きます。\n"
        "**結界** — 昇順が2つ（1から上へ）、降順が2つ（100から下へ）。昇順には一番上より大きい数か、"
        "ちょうど10小さい数を置けます（10戻し）。降順には小さい数か、ちょうど10大きい数を置けます。\n"
        "**手札** — 1人8枚、2人7枚、3～5人6枚。\n"
        "**手番** — 手札から1枚ずつ好きな結界に置きます。山札がある間は2枚以上、山札が尽きたら1枚以上。"
        "それ以上置いてもかまいません。最後に手札の枚数まで山札から補充し、次の人へ。置いたカードは戻せません。\n"
        "**終了** — 手番のプレイヤーが必要な枚数を置けなくなった時点でゲームは終わります（ボットが自動で判定します）。"
        "手札がなくなったプレイヤーは飛ばします。残り枚数＝山札＋全員の手札。0枚なら完全勝利、1～9枚なら勝利、"
        "10枚以上なら敗北です。\n"
        "**相談** — 具体的な数字は伝えてはいけません。代わりに結界へのサイン「ここには置かないで」"
        "「ここで大きく飛ばさないで」を使えます。誰でも付けたり外したりできます。AIはサインを守り、"
        "10戻しのカードを持つ結界には自分でサインを付けることがあります。\n"
        "**スタートプレイヤー** — 開始時にホストが選びます（既定はランダム）。\n"
        "**オン・ファイア** — 22 33 44 55 66 77 が青いカードになります。各手番の終了時に、"
        "それより前の手番に置かれた青いカードがどこかの結界の一番上にあれば、その場で全員の敗北です。"
        "つまり青いカードは、次に行われる手番（1人なら自分の次の手番）の終了までに青くないカードで覆う必要があります。"
        "誰かが置けなくなって終わった場合は、通常どおり残り枚数で判定します。\n"
        "**上級** — 山札がある間は1手番に3枚以上（山札が尽きたら1枚以上）、手札を1枚減らす（7／6／5枚）。"
        "組み合わせもできます。\n"
        "**記録** — サーバーごとに最高成績と完全勝利の回数を残します。"
    ),
}

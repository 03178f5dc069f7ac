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
    "thegame.rules.intro": (
        "**目的** — 全員で協力して、98枚のカード（2～99）をできるだけ多く4つの結界に置きます。昇順の結界が2つ（1から上へ）、降順の結界が2つ（100から下へ）。\n"
        "**手番** — 手札から1枚ずつ好きな結界に置きます。山札がある間は2枚以上、尽きたら1枚以上（もっと置いても構いません）。昇順には一番上より大きい数かちょうど10小さい"
        "数、降順には小さい数かちょうど10大きい数。最後に手札を補充します。\n"
        "**相談** — 数字は伝えられません。結界のサインを使います。\n"
        "**終了** — 手番のプレイヤーが必要な枚数を置けなくなったら終了。残り（山札＋全員の手札）が0枚なら完全勝利、1～9枚なら勝利、10枚以上なら敗北で、結果は全員共通です"
        "。"
    ),
    "thegame.rules.setup": (
        "**カード** — 2～99のカード98枚（各1枚）。結界は4つ：昇順の2つは1から、降順の2つは100から始まります。\n"
        "**手札** — 1人8枚、2人7枚、3～5人6枚（上級レベルでは1枚少なく）。手札は自分にしか見えません。\n"
        "**山札** — 残りのカードを伏せて置きます。\n"
        "**スタートプレイヤー** — （裁定）ゲーム開始時にホストが選びます（既定はランダム）。以降は席順に手番が回ります。"
    ),
    "thegame.rules.turn": (
        "**カードを置く** — 1枚ずつ、好きな結界に置きます。同じ結界に何枚置いても構いません。山札がある間は2枚以上、尽きたら1枚以上（上級レベルでは3枚以上、（裁定）山札が"
        "尽きたら1枚以上）。それ以上置いても、手札を全部置いても構いません。\n"
        "**昇順の結界** — 一番上より大きい数か、ちょうど10小さい数（10戻し：47の上に37）。\n"
        "**降順の結界** — 一番上より小さい数か、ちょうど10大きい数（65の上に75）。\n"
        "**戻せません** — 置いたカードはそのままです。\n"
        "**手番の終わり** — 必要な枚数を置いたら手番を終えます。手札の枚数まで山札から補充し（山札にある分だけ）、次の人の手番です。手札がなくなったプレイヤーは飛ばします。\n"
        "**相談** — 数字を伝えたり、推測できるように言ったりしてはいけません（「ここで大きな仕事をする」もアウト）。（裁定）代わりに各結界に「ここには置かないで」「ここで大き"
        "く飛ばさないで」の2つのサインがあり、誰でも付けたり外したりでき、卓に表示されます。AIはサインを守り、自分が置けるカードを持つ結界にサインを付けることがあります。\n"
        "**ここでの遊び方** — 手札の画面でカードを選び、置ける結界のボタンを押します。終わったら「手番終了」。結界のサインも手札の画面のメニューから付けられます。"
    ),
    "thegame.rules.scoring": (
        "**終了** — （裁定）手番のプレイヤーが必要な枚数を置けなくなった時点で、手番の最初でも途中でも、ボットが自動で判定して終了します。98枚すべて置いても終了です。\n"
        "**結果** — 置けなかったカード（山札＋全員の手札）を数えます。0枚：完全勝利。1～9枚：勝利。10枚以上：敗北。結果は全員共通です。\n"
        "**オン・ファイア** — 青いカードを覆えなかったら、枚数に関係なく全員の敗北です（「バリエーション」参照）。\n"
        "**記録** — サーバーとチャンネルごとに最高成績と完全勝利の回数を残し、終了した卓に表示します。勝てたら完全勝利を、次は上級レベルを目指しましょう。"
    ),
    "thegame.rules.options": (
        "**オン・ファイア** — 22 33 44 55 66 77 が青いカードになります。置き方のルールは通常どおりです。（裁定）各手番の終了時に、それより前の手番に置かれた"
        "青いカードがどこかの結界の一番上にあれば、その場で全員の敗北です。つまり青いカードは、次に行われる手番（1人なら自分の次の手番）の終了までに青くないカードで覆う必要がありま"
        "す。誰かが置けなくなって終わった場合は、通常どおり残り枚数で判定します。\n"
        "**上級レベル** — 卓を開くときに選びます（組み合わせも可）：山札がある間は1手番に3枚以上（（裁定）山札が尽きたら1枚以上）、手札を1枚減らす（7／6／5枚）。"
    ),
    "thegame.rules.rulings": (
        "（裁定）**終了** — ルールブックでは、手番のプレイヤーが必要な枚数を置けなくなったら終了です。ボットはこれを自動で判定します：手番のプレイヤーがまだ必要な枚数を置いて"
        "おらず、どの結界にも置けるカードがなければ、その時点で終了です。\n"
        "（裁定）**スタートプレイヤー** — ルールブックでは話し合いで決めます。ここではゲーム開始時にホストが選びます（既定はランダム）。\n"
        "（裁定）**相談** — 数字は伝えられないので、ボットは誰にもほかの人の手札を見せません。代わりに各結界に「ここには置かないで」「ここで大きく飛ばさないで」の2つのサイン"
        "があり、誰でも付けたり外したりでき、卓に表示されます。AIはサインを守り、自分で「ここには置かないで」を付けることもあります（数字は明かしません）。\n"
        "（裁定）**オン・ファイア** — 判定は各手番の終了時です。それより前の手番に置かれた青いカードが一番上にある結界があれば、その場で全員の敗北です。ある手番に置いた青いカ"
        "ードは、次に行われる手番（1人なら自分の次の手番）の終了までに覆います。\n"
        "（裁定）**上級の最低枚数** — 山札がある間は1手番に3枚以上。山札が尽きたら1枚以上です。"
    ),
}

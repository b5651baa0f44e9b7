/**
 * English function words, question words and contraction fragments: words that say how a
 * question is asked, not what it is about. They are dropped before a question reaches the index
 * (the index keeps them, so snippets and phrases stay intact). Content words that happen to be
 * common are not listed here: document frequency prunes those, per corpus.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...`a about above after again against all am an and any are aren as at be because been before being below
   between both but by can cannot could couldn d did didn do does doesn doing don down during each few for
   from further had hadn has hasn have haven having he her here hers herself him himself his how i if in
   into is isn it its itself just ll m me more most mustn my myself no nor not now o of off on once only or
   other ought our ours ourselves out over own re s same shan she should shouldn so some such t than that
   the their theirs them themselves then there these they this those through to too under until up upon us
   ve very was wasn we were weren what when where which while who whom whose why will with won would
   wouldn you your yours yourself yourselves
   also already always anything anyone anybody every everything else ever get gets got getting let lets
   may might must shall
   tell explain describe please thanks thank`
    .split(/\s+/)
    .filter(Boolean),
  ...spacelessStopWords(),
]);

/**
 * The same for Chinese, Japanese and Thai, as ICU splits their questions into words
 * (shared/words.ts): particles, copulas, question words and polite endings. `设备补贴是多少` →
 * 设备|补贴|是|多少 keeps 设备 and 补贴; `会議室はどこにありますか` → 会議|室|は|どこ|に|ありま|すか
 * (ICU's dictionary splits ありますか there, so its pieces are listed); `ที่จอดรถอยู่ที่ไหน` →
 * ที่|จอด|รถ|อยู่|ที่ไหน keeps จอด and รถ.
 */
function spacelessStopWords(): string[] {
  const chinese = `的 了 是 在 吗 呢 吧 啊 么 和 与 及 或 也 都 就 还 又 把 被 给 对 从 向 于 以 而
    这 那 这个 那个 这些 那些 这里 那里 我 你 您 他 她 它 我们 你们 他们 有 没有 不 能 可以 要
    什么 多少 怎么 怎样 怎么样 如何 为什么 哪 哪里 哪儿 哪个 哪些 谁 几 请问 请 告诉 一下`;
  const japanese = `は が を に で の と も か へ や から まで より ね よ な だ です ます でした ました
    し する します した って て た い ある あり ありま あります すか います いる これ それ あれ この その
    あの 何 なに どこ どれ どの どう いつ だれ 誰 いくら なぜ ください 教え`;
  const thai = `ที่ คือ อะไร ไหน ที่ไหน ตรงไหน เท่าไร เท่าไหร่ เท่า ไหร่ ไหม มั้ย หรือ และ ของ ใน มี เป็น อยู่ ได้ จะ ไม่
    ครับ คะ ค่ะ นะ การ ให้ กับ แล้ว ก็ ว่า นี้ นั้น อย่างไร ยังไง ทำไม ใคร เมื่อไร เมื่อไหร่`;
  return `${chinese} ${japanese} ${thai}`.split(/\s+/).filter(Boolean);
}

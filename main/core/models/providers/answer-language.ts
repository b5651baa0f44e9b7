import { wordsOf } from '../../../../shared/words.js';

/**
 * The language a question is asked in, for what Parley itself says back (the built-in model's
 * framing sentences): a Chinese question gets its quotes introduced in Chinese. A guess from the
 * question alone, cheap and deterministic: by script for the scripts only one language of ours is
 * written in, and for Latin text by a vote of function words, English when nothing votes.
 */

export type AnswerLanguage = 'en' | 'de' | 'fr' | 'es' | 'zh' | 'ja' | 'ko' | 'th';

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const HANGUL = /\p{Script=Hangul}/u;
const THAI = /\p{Script=Thai}/u;
const LATIN = /\p{Script=Latin}/u;

// Short, frequent words of questions; a word in two lists votes for both. Only what tells the
// languages apart matters, so words common to all (names, numbers) are not here.
const FUNCTION_WORDS: Record<'en' | 'de' | 'fr' | 'es', ReadonlySet<string>> = {
  en: new Set('the a an is are was were be what how who whom where when why which does do did can could should would of to and in on for with from my our your it this that there much many'.split(' ')),
  de: new Set(
    'der die das den dem des ein eine einen einem einer ist sind war wird werden wie was wer wo wann warum welche welcher welches wieviel wieviele ich wir sie es nicht und oder mit für von zu zum zur im auf bei aus gibt viel viele kann muss soll hat haben mein unser ihr'.split(' '),
  ),
  fr: new Set('le la les un une des du de est sont quel quelle quels quelles comment combien où pourquoi qui que quoi et ou pour dans sur avec au aux ce cette il elle nous vous je mon notre votre y a peut doit'.split(' ')),
  es: new Set('el la los las de un una unos unas es son está están qué cuál cuáles cómo cuánto cuánta cuántos dónde cuándo por porque quién y o para en con del al se su mi nuestro hay puede debe'.split(' ')),
};
// Letters only one of them writes: a word holding one is a vote of its own.
const LETTERS: Array<readonly [RegExp, 'de' | 'fr' | 'es']> = [
  [/[äöüß]/, 'de'],
  [/[çèêëîïôûœ]/, 'fr'],
  [/[ñ¿¡]/, 'es'],
];

/** The language of a question: by the script most of its words are in, then (Latin) by its function words. */
export function questionLanguage(question: string): AnswerLanguage {
  const scripts = { ja: 0, zh: 0, ko: 0, th: 0, latin: 0 };
  let kana = false;
  const latinWords: string[] = [];
  for (const { text } of wordsOf(question.slice(0, 2000))) {
    if (KANA.test(text)) {
      kana = true;
      scripts.ja++;
    } else if (HAN.test(text)) scripts.zh++;
    else if (HANGUL.test(text)) scripts.ko++;
    else if (THAI.test(text)) scripts.th++;
    else if (LATIN.test(text)) {
      scripts.latin++;
      latinWords.push(text.toLowerCase());
    }
  }
  // Japanese writes Han too: kana anywhere makes its Han words Japanese.
  if (kana) {
    scripts.ja += scripts.zh;
    scripts.zh = 0;
  }
  let best: AnswerLanguage | 'latin' = 'latin';
  let most = 0;
  for (const script of ['latin', 'zh', 'ja', 'ko', 'th'] as const) {
    // A tie goes to the script other than Latin: a Latin product name in a Chinese question is common.
    if (scripts[script] > most || (scripts[script] === most && most > 0 && script !== 'latin')) {
      best = script;
      most = scripts[script];
    }
  }
  return best === 'latin' ? latinLanguage(latinWords) : best;
}

function latinLanguage(words: readonly string[]): AnswerLanguage {
  const votes = { en: 0, de: 0, fr: 0, es: 0 };
  for (const word of words) {
    for (const language of ['en', 'de', 'fr', 'es'] as const) if (FUNCTION_WORDS[language].has(word)) votes[language]++;
    for (const [letters, language] of LETTERS) if (letters.test(word)) votes[language]++;
  }
  let best: AnswerLanguage = 'en';
  for (const language of ['de', 'fr', 'es'] as const) if (votes[language] > votes[best]) best = language;
  return best;
}

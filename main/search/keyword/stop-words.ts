/**
 * English function words, question words and contraction fragments: words that say how a
 * question is asked, not what it is about. They are dropped before a question reaches the index
 * (the index keeps them, so snippets and phrases stay intact). Content words that happen to be
 * common are not listed here: document frequency prunes those, per corpus.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren as at be because been before being below
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
);

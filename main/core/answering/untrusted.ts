/**
 * Text from outside Parley that a model reads — tool results (MCP servers' and Parley's own),
 * dataset passages, dataset names and descriptions, file names — is data, never instructions. It
 * reaches the model inside markers (`<untrusted-…>`) that the system prompt explains, and nothing
 * in it can pass for a marker: whatever resembles one is defused first, however it is written
 * (spaces or slashes inside, no closing `>`, another case, look-alike or escaped `<`, invisible
 * characters in between).
 */

/** What stands where something resembling a marker was. */
export const DEFUSED = '[delimiter removed]';

/** Invisible format characters (zero-width, bidirectional controls): they could split a marker's name unseen. */
const FORMAT_CHARS = /\p{Cf}/gu;

/**
 * An opening angle bracket (or a look-alike, an HTML entity or a JSON escape of one), anything but
 * letters before the name, the name, and the rest of the tag up to its `>` when it has one.
 */
const MARKER_LIKE =
  /(?:<|＜|﹤|‹|〈|⟨|&lt;?|&#0*60;?|&#x0*3c;?|\\u003c)[^\p{L}\p{N}\n]{0,12}untrusted[^<>＜＞\n]{0,80}(?:>|＞|›|〉|⟩|&gt;?)?/giu;
/** A marker's tail without its `<` (`untrusted-tool-result>`), which a model could still read as one. */
const TAIL_LIKE = /untrusted[\s_-]*[\p{L}_-]*\s*(?:>|＞|›|〉|⟩|&gt;?)/giu;

/** `text` with every look-alike of a marker replaced by DEFUSED; the rest is unchanged. */
export function defuse(text: string): string {
  return text.replace(FORMAT_CHARS, '').replace(MARKER_LIKE, DEFUSED).replace(TAIL_LIKE, DEFUSED);
}

/** `text` between the markers of `kind` (e.g. `tool-result` → `<untrusted-tool-result>`), defused. */
export function fenced(kind: string, text: string): string {
  return `<untrusted-${kind}>\n${defuse(text)}\n</untrusted-${kind}>`;
}

/** A name or description as one JSON string: it cannot leave its quotes, and it is defused. */
export function quotedField(text: string): string {
  return JSON.stringify(defuse(text));
}

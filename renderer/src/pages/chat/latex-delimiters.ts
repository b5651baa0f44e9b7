/**
 * LaTeX's own delimiters, `\(…\)` inline and `\[…\]` display, which many models write instead of
 * dollars, turned into the dollars remark-math reads. In Markdown `\(` is only an escaped
 * parenthesis, so without this a formula shows as its raw TeX. Code (fenced blocks and inline code
 * spans) is left as written. The inner spaces go (`\( x \)` → `$x$`): a space inside single
 * dollars reads as money (remark-dollar-amounts.ts).
 */

// Fenced blocks (up to the closing fence or the end), then inline code spans of any backtick run.
const CODE = /(^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\2[ \t]*$|(?![\s\S]))|(`+)[\s\S]*?\3)/gm;
const DISPLAY = /\\\[([\s\S]+?)\\\]/g;
const INLINE = /\\\(([^\n]+?)\\\)/g;

/** Whether a text may hold LaTeX's delimiters (cheap: the renderer asks for every answer). */
export const LATEX_MARK = /\\\(|\\\[/;

function outsideCode(text: string): string {
  return text.replace(DISPLAY, (_, tex: string) => `$$${tex.trim()}$$`).replace(INLINE, (_, tex: string) => `$${tex.trim()}$`);
}

export function dollarDelimiters(text: string): string {
  if (!LATEX_MARK.test(text)) return text;
  let out = '';
  let last = 0;
  for (const code of text.matchAll(CODE)) {
    out += outsideCode(text.slice(last, code.index)) + code[0];
    last = code.index + code[0].length;
  }
  return out + outsideCode(text.slice(last));
}

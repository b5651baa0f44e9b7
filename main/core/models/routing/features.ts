import { messageTokens } from '../../platform/tokens.js';
import type { RequestFeatures } from './types.js';

export interface FeatureInput {
  /** The new message. */
  message: string;
  /** The thread context sent with it (earlier messages, system prompt). */
  context: Array<{ role: string; content: string }>;
  dataset_count: number;
  agentic: boolean;
}

/**
 * Code and maths are looked for in at most this many characters from each end of the message, so a
 * pasted book cannot make routing slow; code pasted at the end of a long message is still seen.
 */
const SCAN_EDGE_CHARS = 16_384;

export function extractFeatures(input: FeatureInput): RequestFeatures {
  let prompt_tokens = messageTokens(input.message);
  for (const m of input.context) prompt_tokens += messageTokens(m.content);
  const text = scanWindow(input.message);
  return {
    prompt_tokens,
    has_code: hasCode(text),
    has_math: hasMath(text),
    dataset_count: Number.isFinite(input.dataset_count) ? Math.max(0, Math.floor(input.dataset_count)) : 0,
    agentic: input.agentic,
  };
}

function scanWindow(message: string): string {
  if (message.length <= 2 * SCAN_EDGE_CHARS) return message;
  return `${message.slice(0, SCAN_EDGE_CHARS)}\n${message.slice(-SCAN_EDGE_CHARS)}`;
}

// ---- code -------------------------------------------------------------------------------------

/** A fence (``` or ~~~ at the start of a line) is code on its own, closed or not. */
const FENCE = /^[ \t]{0,3}(?:```|~~~)/m;

/**
 * One line of any of these is code: these shapes do not occur in prose. SQL needs its keywords in
 * capitals and with their partner keyword ("SELECT … FROM"), because "Select one from the list" is
 * an English sentence; "function" needs a parameter list closed by "{" or the end of the line,
 * because "the function f(x) is continuous" is maths.
 */
const STRONG_CODE_LINE: RegExp[] = [
  /^\s*#\s*include\s*[<"][\w./-]+[>"]/,
  /^\s*(?:async\s+)?def\s+[A-Za-z_]\w*\s*\(.*\)\s*(?:->\s*[^:]+)?:\s*$/,
  /^\s*(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s*\*?\s*[\w$]*\s*\([^)]*\)\s*(?::\s*[^{]+)?(?:\{.*)?$/,
  /\bfunction\s*[\w$]*\s*\([^)]*\)\s*\{/,
  /^\s*(?:export\s+)?const\s+[A-Za-z_$][\w$]*\s*(?::\s*[^=]+)?=/,
  /^\s*(?:let|var)\s+[A-Za-z_$][\w$]*\s*(?::\s*[^=]+)?=.*;\s*$/,
  /^\s*(?:SELECT\s+.+\s+FROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:TABLE|INDEX|VIEW|UNIQUE\s+INDEX)\b|ALTER\s+TABLE\b|DROP\s+(?:TABLE|INDEX|VIEW)\b)/,
  // Stack traces: JavaScript, Python, Java, Rust.
  /^\s+at\s+(?:async\s+)?[\w$.<>[\] ]*\(?[^()\s]+:\d+:\d+\)?\s*$/,
  /^Traceback \(most recent call last\):/,
  /^\s*File "[^"]+", line \d+/,
  /^\s+at\s+[\w$.]+\([\w$.]+\.java:\d+\)/,
  /^Exception in thread "/,
  /panicked at .+:\d+:\d+/,
  /^\s*import\s+(?:[\w{}*,\s]+\s+from\s+)?['"][^'"]+['"]\s*;?\s*$/,
  /^\s*(?:public|private|protected)\s+(?:static\s+)?[\w<>[\]]+\s+\w+\s*\([^)]*\)\s*(?:\{|;|throws\b)/,
  /\b(?:console\.log|System\.out\.println|printf|std::\w+)\s*\(/,
];

/**
 * Each of these is a hint only; it takes two to call a message code. A line ending in ";" counts
 * only with code punctuation or `return` before it, since prose uses semicolons too.
 */
const WEAK_CODE_LINE: RegExp[] = [
  /(?:[=()[\]]|\breturn\b).*;\s*$/,
  /\{\s*$/,
  /^\s*[}\])];?\s*$/,
  /(?:[\w)\]]\s*=>|=>\s*[{(])/,
  /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\([^)]*\)/, // obj.method(args)
  /(?:===|!==|&&|\+=)/,
  /^\s*(?:if|for|while)\s*\(.*\)\s*\{?\s*$/,
  /^\s*(?:class|interface|struct|enum)\s+[A-Z]\w*\s*(?:extends\s+\w+\s*)?[:{(]?\s*$/,
  /^\s*from\s+[\w.]+\s+import\s+[\w*]+(?:\s*,\s*[\w*]+)*(?:\s+as\s+\w+)?\s*$/,
];

/** An inline `span` with code punctuation in it is a hint, like a weak line. */
const INLINE_CODE = /`[^`\n]*[(){}[\];=<>.][^`\n]*`/;

const CODE_THRESHOLD = 2;

export function hasCode(text: string): boolean {
  if (FENCE.test(text)) return true;
  let score = INLINE_CODE.test(text) ? 1 : 0;
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    for (const re of STRONG_CODE_LINE) if (re.test(line)) return true;
    for (const re of WEAK_CODE_LINE) {
      if (re.test(line)) {
        score += 1;
        if (score >= CODE_THRESHOLD) return true;
      }
    }
  }
  return false;
}

// ---- maths ------------------------------------------------------------------------------------

/** LaTeX commands and environments are maths wherever they are, fenced (```latex) or not. */
const LATEX_COMMAND: RegExp[] = [
  /\\(?:frac|dfrac|int|iint|oint|sum|prod|sqrt|lim|partial|infty|cdot|times|nabla|mathbb|mathrm|binom|leq|geq|neq|approx|alpha|beta|gamma|delta|theta|lambda|sigma|omega|pi)(?![A-Za-z])/,
  /\\begin\{(?:equation|align|matrix|pmatrix|bmatrix|cases)\*?\}/,
];

/**
 * Delimited maths, looked for outside code (where "$PATH:$HOME" is shell). `$…$` counts only with
 * the usual TeX rules: no space just inside either dollar, and no digit right after the closing
 * one — so "$5 and $10" or "$5-$10" stay prices.
 */
const LATEX_DELIMITED: RegExp[] = [
  /\$\$[^$]+\$\$/,
  /\$[^\s$](?:[^$\n]*[^\s$])?\$(?!\d)/,
  /\\\(.+?\\\)/,
  /\\\[[\s\S]+?\\\]/,
];

/** A number or a single-letter variable, optionally with a coefficient and a power: 3, x, 2x, x^2. */
const TERM = String.raw`(?:\d+(?:\.\d+)?[a-zA-Z]?|\b[a-zA-Z]\b)(?:\^\d+|²|³)?`;
const OPERATOR = String.raw`\s*[-+*/×÷·^]\s*`;

const EQUATION: RegExp[] = [
  // Arithmetic between numbers: "2+2", "3 * 4", "2^10". "-" and "/" need spaces around them, since
  // "10-20", "2024-01-05" and "1/2/2024" are ranges and dates in prose.
  /\d\s*[+*×÷^]\s*\d/,
  /\d\s+[-/]\s+\d/,
  // An equation: terms and operators on both sides of "=" or an inequality, with at least one operator
  // ("2x + 3 = 7", "a + b = c", "x = 2y - 1"). Variables are single letters: "me + you = us" is prose.
  new RegExp(String.raw`${TERM}(?:${OPERATOR}${TERM})+\s*(?:=|<=|>=|≤|≥|≠)\s*-?${TERM}`),
  new RegExp(String.raw`${TERM}\s*(?:=|≤|≥|≠)\s*-?${TERM}(?:${OPERATOR}${TERM})+`),
  /\b[a-zA-Z]\^\d+/, // x^2 (not "m²", which is an area)
  /[∫∑∏√∂∞≤≥≠±]/,
];

const MATH_WORDS =
  /\b(?:integrals?|integrate|derivatives?|differentiate|antiderivative|solve\s+for\s+[a-z]\b|prove\s+that|proof\s+that|theorem|lemma|matrix|matrices|eigen\w*|determinant|probability|polynomials?|logarithms?|quadratic|factorials?|equations?|calculus|algebra|trigonometry|arithmetic\s+mean|standard\s+deviation|variance)\b/i;

const FENCED_BLOCKS = /^[ \t]{0,3}(```|~~~)[^\n]*\n[\s\S]*?^[ \t]{0,3}\1[^\n]*$/gm;
const INLINE_SPANS = /`[^`\n]*`/g;

export function hasMath(text: string): boolean {
  if (MATH_WORDS.test(text)) return true;
  for (const re of LATEX_COMMAND) if (re.test(text)) return true;
  // Assignments, expressions and dollars inside code are code, not maths.
  const prose = text.includes('`') || text.includes('~~~') ? text.replace(FENCED_BLOCKS, '').replace(INLINE_SPANS, '') : text;
  for (const re of LATEX_DELIMITED) if (re.test(prose)) return true;
  for (const re of EQUATION) if (re.test(prose)) return true;
  return false;
}

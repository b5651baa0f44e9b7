import type { Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

type Remark = NonNullable<Options['remarkPlugins']>;
type Rehype = NonNullable<Options['rehypePlugins']>;

export interface MathPlugins {
  remark: Remark;
  rehype: Rehype;
}

/** Text that may hold maths: a dollar, or a ```math fence. */
export const MATH_MARK = /\$|^ {0,3}(```|~~~)[ \t]*math\b/m;

let math: MathPlugins | null = null;
let loading: Promise<MathPlugins | null> | null = null;

export function loadedMath(): MathPlugins | null {
  return math;
}

/**
 * KaTeX and its fonts weigh more than the rest of the renderer, and most answers have no maths:
 * they are fetched the first time an answer has a dollar, then kept. A failed fetch (the service
 * went away) leaves the text as it is, and the next answer asks again.
 */
export function loadMath(): Promise<MathPlugins | null> {
  loading ??= import('./math-plugins.js').then(
    (m) => (math = m.MATH_PLUGINS),
    () => {
      loading = null;
      return null;
    },
  );
  return loading;
}

/**
 * KaTeX runs right after the sanitiser (a model's TeX is untrusted, KaTeX's own markup is not) and
 * before the highlighter, which has no "math" language.
 */
export function withMath(plugins: Rehype, loaded: MathPlugins | null): Rehype {
  if (!loaded) return plugins;
  const at = plugins.indexOf(rehypeSanitize) + 1;
  return [...plugins.slice(0, at), ...loaded.rehype, ...plugins.slice(at)];
}

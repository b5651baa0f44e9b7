import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import type { MathPlugins } from './markdown-math.js';
import { remarkDollarAmounts } from './remark-dollar-amounts.js';

/**
 * The maths chunk: remark-math reads `$…$` and `$$…$$`, KaTeX draws them. Its stylesheet and fonts
 * are bundled with this chunk (the app works offline). A formula KaTeX cannot read stays visible,
 * in the error colour, rather than failing the answer; `trust` stays off (no links or HTML from TeX).
 */
export const MATH_PLUGINS: MathPlugins = {
  remark: [remarkMath, remarkDollarAmounts],
  rehype: [[rehypeKatex, { throwOnError: false, strict: 'ignore' }]],
};

import { describe, expect, it } from 'vitest';
import { extractFeatures, hasCode, hasMath } from '../../../main/core/models/routing/features.js';
import { messageTokens } from '../../../main/core/platform/tokens.js';

const features = (message: string, extra: Partial<Parameters<typeof extractFeatures>[0]> = {}) =>
  extractFeatures({ message, context: [], dataset_count: 0, agentic: false, ...extra });

describe('code detection', () => {
  const code: Array<[string, string]> = [
    ['a fenced block', 'Why does this fail?\n```\nfoo(bar)\n```'],
    ['an unclosed fence with a language', '```python\nprint(1)'],
    ['a tilde fence', '~~~\nls -la\n~~~'],
    ['a JavaScript function', 'function add(a, b) {\n  return a + b;\n}'],
    ['an exported async function', 'export async function load(id: string): Promise<void> {'],
    ['a const declaration', 'const total = items.length'],
    ['a let with a semicolon', 'let x = 5;'],
    ['a Python def', 'def area(r):\n    return 3.14 * r * r'],
    ['#include', '#include <stdio.h>\nint main() { return 0; }'],
    ['SQL', 'SELECT id, name FROM users WHERE age > 30'],
    ['SQL insert', 'INSERT INTO orders (id) VALUES (1)'],
    ['a Python traceback', 'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nKeyError: 1'],
    ['a Node stack trace', 'TypeError: x is undefined\n    at Object.<anonymous> (/app/index.js:10:5)'],
    ['a Java stack trace', 'Exception in thread "main" java.lang.NullPointerException'],
    ['a Rust panic', "thread 'main' panicked at src/main.rs:4:5"],
    ['an ES import', "import { readFile } from 'node:fs';"],
    ['arrow function and call', 'items.map((x) => x * 2);'],
    ['inline code with a call', 'Why does `arr.filter(Boolean)` return an empty array?'],
    ['a Java method', 'public static void main(String[] args) {'],
    ['braces over several lines', 'if (ready) {\n  go();\n}'],
  ];
  it.each(code)('%s is code', (_label, text) => {
    expect(hasCode(text)).toBe(true);
  });

  const prose: Array<[string, string]> = [
    ['a question about writing a function', 'Can you help me write a function that sorts names? It should be fast; maybe quicksort.'],
    ['"select … from" in English', 'Select the best option from the list below and explain why.'],
    ['semicolons in prose', 'I went to the store; bought milk; came home.\nThen I slept; it was late.'],
    ['a maths function', 'The function f(x) is continuous on [0, 1].'],
    ['arrows in a plan', 'Step 1 -> Step 2\nStep 3 -> Step 4\nStep 5 -> done'],
    ['a sentence starting with "from … import"', 'From China we import cheap goods every year.'],
    ['parentheses and times', "Let's meet at 10:30 (or later) on Monday."],
    ['a markdown list', '- apples\n- pears\n- plums'],
    ['an email', 'Hi Sam,\n\nThanks for the notes (very helpful). See you Friday.\n\nBest,\nAlex'],
    ['a URL', 'See https://example.com/docs?page=2 for details.'],
  ];
  it.each(prose)('%s is not code', (_label, text) => {
    expect(hasCode(text)).toBe(false);
  });
});

describe('maths detection', () => {
  const math: Array<[string, string]> = [
    ['inline LaTeX', 'Show that $x^2 + y^2 = z^2$ has integer solutions.'],
    ['display LaTeX', '$$\\sum_{i=1}^n i$$'],
    ['a LaTeX command', 'What is \\frac{1}{2} of that?'],
    ['\\int in a fenced LaTeX block', '```latex\n\\int_0^1 x\\,dx\n```'],
    ['\\( … \\)', 'Simplify \\(a^2 - b^2\\).'],
    ['an equation', 'Solve 2x + 3 = 7'],
    ['"solve for x"', 'Can you solve for y in this one?'],
    ['arithmetic', 'what is 12 * 7?'],
    ['subtraction with spaces', 'What is 100 - 37?'],
    ['a power', 'Find the roots of x^2 - 4'],
    ['an integral in words', 'What is the integral of sin over a period?'],
    ['a derivative in words', 'Find the derivative of the logistic curve.'],
    ['probability', "What's the probability of rolling two sixes?"],
    ['prove that', 'Prove that there are infinitely many primes.'],
    ['a matrix', 'Invert this matrix for me.'],
    ['a unicode symbol', '∫ sin(t) dt'],
  ];
  it.each(math)('%s is maths', (_label, text) => {
    expect(hasMath(text)).toBe(true);
  });

  const notMath: Array<[string, string]> = [
    ['prices', 'It costs $5 and $10 for the two tickets.'],
    ['a price range', 'Rooms are $80-$120 a night.'],
    ['time and date ranges', 'The meeting is 10-11 on 2024-01-05.'],
    ['phone numbers', 'Call me at 555-1234 or +1 415 555 0100.'],
    ['counts', 'I have 3 cats and 2 dogs.'],
    ['a version and a date', 'Version 2.0 ships on 1/2/2025.'],
    ['an area', 'A 50 m² flat near the station.'],
    ['words joined by plus', 'me + you = us, forever'],
    ['code assignments in a fence', '```\ni = i + 1\n```'],
    ['shell variables in inline code', 'Set `$PATH:$HOME` first.'],
    ['ordinary prose', 'Can you summarise the meeting notes from Tuesday?'],
  ];
  it.each(notMath)('%s is not maths', (_label, text) => {
    expect(hasMath(text)).toBe(false);
  });
});

describe('extractFeatures', () => {
  it('estimates tokens over the message and its context, with a per-message overhead', () => {
    const f = features('x'.repeat(400), { context: [{ role: 'user', content: 'y'.repeat(40) }, { role: 'assistant', content: '' }] });
    expect(f.prompt_tokens).toBe(messageTokens('x'.repeat(400)) + messageTokens('y'.repeat(40)) + messageTokens(''));
    expect(f.prompt_tokens).toBe(100 + 4 + 10 + 4 + 0 + 4);
  });

  it('looks for code and maths in the new message only', () => {
    const f = features('Thanks!', { context: [{ role: 'user', content: '```\nx = 1\n```\n$x^2$' }] });
    expect(f).toMatchObject({ has_code: false, has_math: false });
    expect(features('```\nx = 1\n```')).toMatchObject({ has_code: true, has_math: false });
  });

  it('passes datasets and agentic through, never negative', () => {
    expect(features('hi', { dataset_count: 2, agentic: true })).toMatchObject({ dataset_count: 2, agentic: true });
    expect(features('hi', { dataset_count: -1 }).dataset_count).toBe(0);
  });

  it('sees code at the end of a very long message', () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(5000)}\n#include <stdio.h>`;
    expect(features(long).has_code).toBe(true);
  });
});

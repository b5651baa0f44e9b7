import type { ChatTurn } from '../platform/ports/providers.js';
import { REPLY_RESERVE_TOKENS, messageTokens } from '../platform/tokens.js';

/**
 * What an image costs a prompt, in tokens, whatever its size: about what providers charge for a
 * large one (OpenAI ~765 at high detail for 1024², Anthropic ~1,600 for 1.15 megapixels).
 */
export const IMAGE_TOKENS = 1_600;

const turnTokens = (turn: ChatTurn) => messageTokens(turn.content) + (turn.images?.length ?? 0) * IMAGE_TOKENS;

/**
 * The conversation as a model sees it: the thread's system prompt, then every earlier message with
 * text or images (whichever model wrote it, partial answers included), oldest turns dropped first
 * when the model's context cannot hold them all. The newest user message is always kept, cut to
 * what the context holds when it alone is longer.
 */
export function buildTurns(
  systemPrompt: string | null,
  history: Array<{ role: 'user' | 'assistant'; content: string; images?: string[] | undefined }>,
  contextTokens: number,
): ChatTurn[] {
  const turns: ChatTurn[] = history
    .filter((m) => m.content.length > 0 || (m.images?.length ?? 0) > 0)
    .map((m) => ({ role: m.role, content: m.content, ...(m.images?.length ? { images: m.images } : {}) }));
  const system: ChatTurn[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  let budget = contextTokens - REPLY_RESERVE_TOKENS - system.reduce((n, t) => n + messageTokens(t.content), 0);
  const kept: ChatTurn[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (!turn) continue;
    const cost = turnTokens(turn);
    if (kept.length > 0 && cost > budget) break;
    if (kept.length === 0 && cost > budget) {
      kept.unshift({ ...turn, content: `${turn.content.slice(0, Math.max(256, budget * 4 - 32))}…` });
      break;
    }
    budget -= cost;
    kept.unshift(turn);
  }
  // Providers want a conversation that starts with the user.
  while (kept.length > 1 && kept[0]?.role === 'assistant') kept.shift();
  return [...system, ...kept];
}

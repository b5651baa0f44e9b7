import { z } from 'zod';

/** What a model is good at; the router matches request features against these. */
export const Strength = z.enum(['general', 'code', 'math', 'reasoning', 'retrieval', 'agentic', 'long_context']);
export type Strength = z.infer<typeof Strength>;

/** A model's declared capabilities, set when it is registered (defaults by provider otherwise). */
export const Capabilities = z.object({
  strengths: z.array(Strength).max(7).default(['general']),
  /** Largest prompt + answer, in tokens. */
  context_tokens: z.number().int().min(256).max(10_000_000).default(8192),
  /** Relative answer quality from 1 (basic) to 10 (frontier); the router weighs it against cost. */
  quality: z.number().int().min(1).max(10).default(5),
  /** Price in USD per million tokens; 0 for local models. */
  cost_per_mtok_input: z.number().min(0).max(10_000).default(0),
  cost_per_mtok_output: z.number().min(0).max(10_000).default(0),
  /** Runs on this machine (no network needed). */
  local: z.boolean().default(false),
  /** Reads images sent with a message (the user says so: providers do not tell). Messages with images are routed only to such models. */
  vision: z.boolean().default(false),
});
export type Capabilities = z.output<typeof Capabilities>;

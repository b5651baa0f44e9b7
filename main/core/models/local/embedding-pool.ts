import type { Config } from '../../../../shared/config.js';

type Lib = typeof import('node-llama-cpp');
type LlamaModel = Awaited<ReturnType<Awaited<ReturnType<Lib['getLlama']>>['loadModel']>>;
type LlamaEmbeddingContext = Awaited<ReturnType<LlamaModel['createEmbeddingContext']>>;

/**
 * How many embedding contexts (of one thread each) a loaded embedding model gets: the configured
 * `[local_models] threads`, else all the cores up to 4. One context of n threads is much slower
 * than n contexts of one thread (llama.cpp's threads wait for each other at every layer, and on a
 * busy machine one of them is always descheduled), while contexts evaluate independently. Measured
 * on two shared cores (docs/bench-real-models.md): 2 contexts embedded ×1.9 the chunks/s of 1 when
 * the second core was free and as many when it was not, at the same cost per CPU-second; 4 gave no
 * more than 2. So more contexts waste nothing when the cores are busy and use them when they are
 * idle: all the cores, not the half chat answers get, since embedding comes in bursts (ingestion,
 * in the model's process, not the UI's) and the OS shares the cores fairly with an answer being
 * written meanwhile. Each context costs its own compute buffer (a few MB for MiniLM).
 */
export function embeddingContextCount(config: Config['local_models'], cores: number): number {
  return Math.max(1, Math.min(4, config.threads > 0 ? config.threads : cores));
}

/**
 * A loaded embedding model's contexts: `embed()` hands each text to the next free one (texts of
 * concurrent calls share them, first come first served) and keeps the output order. Every input is
 * cut to the model's trained length in tokens (`<arch>.context_length`, 256 for all-MiniLM-L6-v2),
 * as sentence-transformers does, special tokens ([CLS], [SEP]) included: longer inputs embed
 * instead of failing, cost less (attention grows faster than the tokens), and match the vectors the
 * model was trained to give; shorter ones embed exactly as before.
 */
export class EmbeddingPool {
  private readonly free: LlamaEmbeddingContext[];
  private readonly waiting: Array<(context: LlamaEmbeddingContext) => void> = [];

  private constructor(
    private readonly model: LlamaModel,
    private readonly contexts: LlamaEmbeddingContext[],
    /** At most this many tokens, special ones included, are embedded. */
    private readonly maxTokens: number,
  ) {
    this.free = [...contexts];
  }

  /** `contextSize` is the contexts' size; `trainedLength` (the GGUF's context length, when known) may be shorter. */
  static async create(model: LlamaModel, options: { count: number; contextSize: number; trainedLength: number | null | undefined }): Promise<EmbeddingPool> {
    const contexts: LlamaEmbeddingContext[] = [];
    try {
      for (let i = 0; i < options.count; i++) contexts.push(await model.createEmbeddingContext({ contextSize: options.contextSize, threads: 1 }));
    } catch (error) {
      await Promise.all(contexts.map((c) => c.dispose().catch(() => {})));
      throw error;
    }
    // node-llama-cpp refuses an input as long as the context: one token fewer at most.
    const maxTokens = Math.min(options.trainedLength ?? Infinity, options.contextSize - 1);
    return new EmbeddingPool(model, contexts, maxTokens);
  }

  async embed(texts: string[]): Promise<number[][]> {
    return Promise.all(
      texts.map(async (text) => {
        const context = await this.take();
        try {
          return [...(await context.getEmbeddingFor(this.cut(context, text))).vector];
        } finally {
          this.give(context);
        }
      }),
    );
  }

  /** The text's tokens, the first ones only when, with the special tokens node-llama-cpp adds, they exceed `maxTokens`. */
  private cut(context: LlamaEmbeddingContext, text: string): import('node-llama-cpp').Token[] {
    // Tokenized as node-llama-cpp tokenizes a string input (no special tokens parsed); it then adds [CLS] and [SEP] (or BOS/EOS).
    const tokens = this.model.tokenize(text, false);
    const total = context.calculateInputLength(tokens);
    return total <= this.maxTokens ? tokens : tokens.slice(0, Math.max(0, this.maxTokens - (total - tokens.length)));
  }

  private take(): Promise<LlamaEmbeddingContext> {
    const context = this.free.pop();
    return context ? Promise.resolve(context) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private give(context: LlamaEmbeddingContext): void {
    const next = this.waiting.shift();
    if (next) next(context);
    else this.free.push(context);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.contexts.map((c) => c.dispose().catch(() => {})));
  }
}

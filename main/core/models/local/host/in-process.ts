import type { LocalEngine } from '../engine.js';
import type { GgufHeader } from '../gguf-header.js';
import type { AgentTurnEvent } from '../../../platform/ports/providers.js';
import { generateWith } from './generate.js';
import type { GenerateRequest, ModelHost } from './types.js';

/**
 * The engine in this very process, as a ModelHost: what unit tests and benches that build a
 * LocalEngine themselves use, and the baseline the model's own process is measured against.
 * A native crash here takes the whole process with it (client.ts is what the app runs).
 */
export class InProcessHost implements ModelHost {
  constructor(readonly engine: LocalEngine) {}

  get freeMemory() {
    return this.engine.freeMemory;
  }

  async probe(): Promise<void> {
    await this.engine.probe();
  }

  unavailableReason(): string | null {
    return this.engine.unavailableReason();
  }

  state(path: string) {
    return this.engine.state(path);
  }

  residents() {
    return this.engine.residents();
  }

  load(path: string, header: GgufHeader): Promise<void> {
    return this.engine.load(path, header);
  }

  unload(path: string): Promise<void> {
    return this.engine.unload(path);
  }

  embed(path: string, header: GgufHeader, texts: string[]): Promise<number[][]> {
    return this.engine.embed(path, header, texts);
  }

  generate(request: GenerateRequest, signal: AbortSignal): AsyncIterable<AgentTurnEvent> {
    return generateWith(this.engine, request, signal);
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

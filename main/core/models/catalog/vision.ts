import type { Model } from '../../../../shared/operations/models.js';

/**
 * Whether `model` reads images: the one rule POST /chat and `/v1` both route and refuse by. The
 * admin says so (`capabilities.vision`): providers do not tell. Never a local GGUF model (no vision
 * projector is loaded) nor the built-in one, which only quotes passages, whatever their mark.
 */
export function readsImages(model: Pick<Model, 'provider' | 'capabilities'>): boolean {
  return model.capabilities.vision && model.provider !== 'llama_cpp' && model.provider !== 'extractive';
}

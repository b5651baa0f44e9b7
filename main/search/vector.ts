/** A model's vector as a Float32Array: undefined when empty, of another width, or not all finite. */
export function toVector(values: readonly number[] | undefined, dimensions?: number): Float32Array | undefined {
  if (!values || values.length === 0 || (dimensions !== undefined && values.length !== dimensions)) return undefined;
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return Float32Array.from(values);
}


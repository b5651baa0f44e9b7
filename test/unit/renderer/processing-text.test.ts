import { describe, expect, it } from 'vitest';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { processingText } from '../../../renderer/src/pages/datasets/format.js';

/** Issue 31: a large file being processed says how far it got, not only a spinner that reads as stuck. */
describe('a processing file’s status', () => {
  it('says the share done once the service reports one', () => {
    expect(processingText(intlFor('en'), 0.42)).toBe('Processing 42%');
    expect(processingText(intlFor('de'), 0.6)).toMatch(/^Wird verarbeitet: 60\s%$/);
  });

  it('says only that it is processing before the first report', () => {
    expect(processingText(intlFor('en'), 0)).toBe('Processing');
  });
});

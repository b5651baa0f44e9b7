import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../shared/errors.js';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { splitFieldErrors } from '../../../renderer/src/pages/settings/model-form-errors.js';

const refused = (errors: { path: string; message: string }[]) => new ServiceError('invalid_argument', 'The model was refused.', errors);

describe('a refusal of the model form, under the field it names', () => {
  it('says in English which field, as a sentence, and nothing more for the form', () => {
    const split = splitFieldErrors(refused([{ path: 'endpoint_url', message: 'is required.' }, { path: 'name', message: 'is too long' }]), intlFor('en'));
    expect(split.fields).toEqual({ endpoint_url: 'The URL is required.', name: 'The name is too long.' });
    expect(split.rest).toBeNull();
  });

  it('names the field in the language of the interface', () => {
    expect(splitFieldErrors(refused([{ path: 'api_key', message: 'is refused' }]), intlFor('de')).fields).toEqual({ api_key: 'Schlüssel: is refused' });
    expect(splitFieldErrors(refused([{ path: 'model', message: 'is refused' }]), intlFor('ja')).fields).toEqual({ model: 'モデル: is refused' });
  });

  it('leaves a problem of no field of the form to the form as a whole', () => {
    const split = splitFieldErrors(refused([{ path: 'provider', message: 'is unknown' }]), intlFor('zh-Hans'));
    expect(split.fields).toEqual({});
    expect(split.rest).toBe('provider: is unknown');
  });
});

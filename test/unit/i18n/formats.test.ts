import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../shared/bytes.js';
import { ServiceError } from '../../../shared/errors.js';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { systemLocale } from '../../../renderer/src/i18n/locale.js';
import { errorDetail, errorText } from '../../../renderer/src/ui/error-text.js';
import { describeTime } from '../../../renderer/src/ui/Time.js';

describe('systemLocale', () => {
  it('takes the first of the browser languages Parley speaks', () => {
    expect(systemLocale(['zh-TW', 'en'])).toBe('zh-Hans');
    expect(systemLocale(['zh_CN'])).toBe('zh-Hans');
    expect(systemLocale(['fr-FR', 'ja-JP', 'de'])).toBe('ja');
    expect(systemLocale(['de-AT'])).toBe('de');
    expect(systemLocale(['fr', 'pt-BR'])).toBe('en');
    expect(systemLocale([])).toBe('en');
  });
});

describe('formatBytes', () => {
  it('keeps its English text without a locale and in English', () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(436_224), formatBytes(4_700_000_000)]).toEqual(['512 B', '1.5 KB', '426 KB', '4.4 GB']);
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
  });

  it('writes number and unit as the language does', () => {
    expect(formatBytes(1536, 'de')).toMatch(/^1,5\skB$/);
    // German puts a no-break space between number and unit.
    expect(formatBytes(4_700_000_000, 'de')).toMatch(/^4,4\sGB$/);
    expect(formatBytes(12 * 1024 * 1024, 'ja')).toMatch(/^12\sMB$/);
    expect(formatBytes(1536, 'zh-Hans')).toMatch(/^1\.5 [kK]B$/);
  });
});

describe('describeTime', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('says "just now", relative times and dates in the interface language', () => {
    const en = intlFor('en');
    expect(describeTime(ago(10_000), en, now)).toBe('just now');
    expect(describeTime(ago(5 * 60_000), en, now)).toBe('5 minutes ago');
    expect(describeTime(ago(86_400_000), en, now)).toBe('yesterday');
    expect(describeTime('2026-03-04T10:00:00Z', en, now)).toBe('Mar 4, 2026');

    const ja = intlFor('ja');
    expect(describeTime(ago(10_000), ja, now)).toBe('たった今');
    expect(describeTime(ago(86_400_000), ja, now)).toBe('昨日');
    expect(describeTime('2026-03-04T10:00:00Z', ja, now)).toBe('2026年3月4日');

    expect(describeTime(ago(5 * 60_000), intlFor('zh-Hans'), now)).toBe('5分钟前');
    expect(describeTime(ago(3 * 3_600_000), intlFor('de'), now)).toBe('vor 3 Stunden');
  });
});

describe('errorText', () => {
  const notFound = new ServiceError('not_found', 'No dataset with id ds_1.');
  const invalid = new ServiceError('invalid_argument', 'name: must not be empty', [{ path: 'name', message: 'must not be empty' }]);

  it('in English, shows the service’s own message (the more specific)', () => {
    expect(errorText(notFound, intlFor('en'))).toBe('No dataset with id ds_1.');
    expect(errorText(invalid, intlFor('en'))).toBe('name: must not be empty');
    expect(errorDetail(notFound, intlFor('en'))).toBeNull();
  });

  it('in another language, words the error by its code, keeping field details and the service’s words for a title', () => {
    expect(errorText(notFound, intlFor('de'))).toBe('Das wurde nicht gefunden. Vielleicht wurde es gelöscht.');
    expect(errorDetail(notFound, intlFor('de'))).toBe('No dataset with id ds_1.');
    expect(errorText(new ServiceError('unavailable', 'The app’s service did not answer'), intlFor('ja'))).toBe('Parley が応答していません。起動していることを確認して、もう一度お試しください。');
    expect(errorText(invalid, intlFor('zh-Hans'))).toBe('请求无效。请检查输入的内容后重试。（name: must not be empty）');
  });

  it('leaves an error of our own code as it was worded', () => {
    expect(errorText(new Error('Paste an API key.'), intlFor('ja'))).toBe('Paste an API key.');
    expect(errorText('plain', intlFor('de'))).toBe('plain');
  });
});

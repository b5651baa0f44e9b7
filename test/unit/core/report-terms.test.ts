import { describe, expect, it } from 'vitest';
import { characteristicTerms, termWords } from '../../../main/core/conversation/reports/terms.js';

describe('a dataset report’s characteristic terms', () => {
  it('finds two-character Chinese words, not whole sentences', () => {
    const dataset = ['设备补贴是一千二百欧元。设备补贴每年发放一次。', '员工的设备补贴需要申请。'];
    const corpus = [...dataset, '远程办公每周最多三天。', '停车场在地下一层。'];
    expect(characteristicTerms(dataset, corpus).map((t) => t.term)).toEqual(['补贴', '设备']);
  });

  it('keeps English words joined by a hyphen or an apostrophe whole, and leaves out numbers and short words', () => {
    expect([...termWords("the home-office allowance isn't 2024 at o'clock")]).toEqual(['the', 'home-office', 'allowance', "isn't", '2024', 'at', "o'clock"]);
    const terms = characteristicTerms(['home-office home-office 2024 2024 at at'], ['other words']);
    expect(terms).toEqual([{ term: 'home-office', count: 2 }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../main/core/platform/seeded-random.js';
import type { Metrics } from '../../../shared/operations/metrics.js';
import { bootTestCore } from '../../support/core.js';

let core: ReturnType<typeof bootTestCore>;
const events: Array<{ user_id: string; model_id: string; input_tokens: number; output_tokens: number; created_at: string }> = [];
const START = Date.parse('2024-03-01T00:00:00.000Z');
const DAY = 86_400_000;

beforeAll(() => {
  core = bootTestCore();
  const owner = core.desktopCaller().user;
  core.db
    .prepare("INSERT INTO users (id, organization_id, workspace_id, email, name, role, created_at, updated_at) VALUES ('usr_other', ?, ?, 'o@example.com', 'Other', 'member', 'now', 'now')")
    .run(owner.organization_id, owner.workspace_id);
  const rand = seededRandom(7);
  // Twenty days of calls at any time of day, by two users on three models.
  for (let i = 0; i < 600; i++) {
    const event = {
      user_id: rand() < 0.6 ? owner.id : 'usr_other',
      model_id: `mdl_${Math.floor(rand() * 3)}`,
      input_tokens: 1 + Math.floor(rand() * 100),
      output_tokens: 1 + Math.floor(rand() * 50),
      created_at: new Date(START + Math.floor(rand() * 20 * DAY)).toISOString(),
    };
    events.push(event);
    core.repos.usage.record({ ...event, source: 'chat', message_id: null });
  }
});
afterAll(() => core.remove());

const metrics = (from: string, to: string) => core.service.invoke('admin.metrics', { from, to }, core.desktopCaller()) as Promise<Metrics>;

describe('admin.metrics over whole and partial days', () => {
  it.each([
    ['whole days', '2024-03-03T00:00:00.000Z', '2024-03-10T00:00:00.000Z'],
    ['partial first and last days', '2024-03-02T13:17:00.000Z', '2024-03-15T08:45:30.000Z'],
    ['within one day', '2024-03-05T06:00:00.000Z', '2024-03-05T18:00:00.000Z'],
    ['across two days, no whole one', '2024-03-05T18:00:00.000Z', '2024-03-06T06:00:00.000Z'],
    ['the whole history', '2024-02-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z'],
  ])('%s: the figures equal sums over the events themselves', async (_name, from, to) => {
    const inside = events.filter((e) => e.created_at >= from && e.created_at < to);
    const sum = (list: typeof events) => ({
      input_tokens: list.reduce((n, e) => n + e.input_tokens, 0),
      output_tokens: list.reduce((n, e) => n + e.output_tokens, 0),
    });
    const m = await metrics(from, to);
    expect(m.totals).toMatchObject({ model_calls: inside.length, ...sum(inside) });
    for (const row of m.per_user) expect(row, row.user.id).toMatchObject(sum(inside.filter((e) => e.user_id === row.user.id)));
    for (const row of m.per_model) expect(row, row.model_id).toMatchObject({ calls: inside.filter((e) => e.model_id === row.model_id).length, ...sum(inside.filter((e) => e.model_id === row.model_id)) });
    expect(m.per_model.reduce((n, r) => n + r.calls, 0)).toBe(inside.length);
    for (const row of m.per_day) expect(row, row.day).toMatchObject(sum(inside.filter((e) => e.created_at.startsWith(row.day))));
    expect(m.per_day.reduce((n, r) => n + r.input_tokens, 0)).toBe(sum(inside).input_tokens);
  });
});

import type { Role } from '../../../shared/operations/common.js';

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super admin',
  admin: 'Admin',
  member: 'Member',
  trial: 'Trial',
};

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [name.trim()];
  return letters
    .map((w) => (w ?? '').slice(0, words.length > 1 ? 1 : 2))
    .join('')
    .toUpperCase() || '?';
}

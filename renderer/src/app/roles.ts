import type { IntlShape } from 'react-intl';
import type { Role } from '../../../shared/operations/common.js';
import type { MessageId } from '../i18n/catalogues/index.js';

const ROLE_NAMES: Record<Role, MessageId> = {
  super_admin: 'app.role.superAdmin',
  admin: 'app.role.admin',
  member: 'app.role.member',
  trial: 'app.role.trial',
};

/** A role as people call it, in the interface's language: "Super admin", "超级管理员". */
export function roleLabel(role: Role, intl: IntlShape): string {
  return intl.formatMessage({ id: ROLE_NAMES[role] });
}

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [name.trim()];
  return letters
    .map((w) => (w ?? '').slice(0, words.length > 1 ? 1 : 2))
    .join('')
    .toUpperCase() || '?';
}

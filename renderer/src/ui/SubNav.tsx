export interface SubNavItem {
  id: string;
  label: string;
  href: string;
}

export interface SubNavProps {
  /** Names the navigation landmark, e.g. "Admin sections". */
  label: string;
  items: readonly SubNavItem[];
  current: string;
  className?: string;
}

/** The tabs of a page with several views, each its own address (so Back and reload work). */
export function SubNav({ label, items, current, className }: SubNavProps) {
  return (
    <nav aria-label={label} className={className ? `subnav ${className}` : 'subnav'}>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={item.href} className="subnav-link" aria-current={item.id === current ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

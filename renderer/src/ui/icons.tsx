import type { ReactNode, SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

/** One stroke shape of an icon; an icon is a few of them on the 24-unit grid. */
type Shape = { kind: 'path'; d: string } | { kind: 'circle'; cx: number; cy: number; r: number } | { kind: 'rect'; x: number; y: number; width: number; height: number; rx: number } | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

const path = (d: string): Shape => ({ kind: 'path', d });
const circle = (cx: number, cy: number, r: number): Shape => ({ kind: 'circle', cx, cy, r });
const rect = (x: number, y: number, width: number, height: number, rx: number): Shape => ({ kind: 'rect', x, y, width, height, rx });
const ellipse = (cx: number, cy: number, rx: number, ry: number): Shape => ({ kind: 'ellipse', cx, cy, rx, ry });

function draw(shape: Shape, key: number): ReactNode {
  const { kind, ...attributes } = shape;
  const Tag = kind;
  return <Tag key={key} {...attributes} />;
}

/** Stroke icons on a 24-unit grid, each written as its shapes on one line; decorative, so hidden from assistive technology. */
function icon(...shapes: Shape[]) {
  return function Icon({ size = 16, className, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={className ? `icon ${className}` : 'icon'}
        {...rest}
      >
        {shapes.map(draw)}
      </svg>
    );
  };
}

export const ChatIcon = icon(path('M20.5 11.5a8 8 0 0 1-11.7 7.1L3.5 20l1.4-4.9A8 8 0 1 1 20.5 11.5Z'));
export const DatasetIcon = icon(ellipse(12, 5.5, 7.5, 2.75), path('M4.5 5.5v13c0 1.5 3.4 2.75 7.5 2.75s7.5-1.25 7.5-2.75v-13'), path('M4.5 12c0 1.5 3.4 2.75 7.5 2.75s7.5-1.25 7.5-2.75'));
export const CompareIcon = icon(rect(3, 4, 7.5, 16, 1.75), rect(13.5, 4, 7.5, 16, 1.75));
export const SettingsIcon = icon(path('M4 7h9M17 7h3M4 17h3M11 17h9'), circle(15, 7, 2.25), circle(9, 17, 2.25));
export const ShieldIcon = icon(path('M12 3 19.5 5.8v5.7c0 4.4-3.1 8.2-7.5 9.5-4.4-1.3-7.5-5.1-7.5-9.5V5.8Z'), path('m9 12 2.2 2.2L15.5 10'));
export const KeyIcon = icon(circle(8, 15.5, 4), path('m10.9 12.6 8.6-8.6M16.5 7l2.5 2.5M14 9.5l2 2'));
export const CopyIcon = icon(rect(9, 9, 11, 11, 2), path('M15 5.5V5a1.5 1.5 0 0 0-1.5-1.5h-8A1.5 1.5 0 0 0 4 5v8a1.5 1.5 0 0 0 1.5 1.5H6'));
export const CheckIcon = icon(path('m5 12.5 4.5 4.5L19 7.5'));
export const SignOutIcon = icon(path('M14.5 4H18a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3.5'), path('m9.5 16-4-4 4-4M5.5 12H15'));
export const AlertIcon = icon(circle(12, 12, 9), path('M12 7.5V13M12 16.5v.01'));
export const LockIcon = icon(rect(4.5, 10.5, 15, 10, 2), path('M8 10.5V7.5a4 4 0 0 1 8 0v3'));
export const PlusIcon = icon(path('M12 5v14M5 12h14'));
export const MoreIcon = icon(circle(5.5, 12, 0.75), circle(12, 12, 0.75), circle(18.5, 12, 0.75));
export const CloseIcon = icon(path('M6 6l12 12M18 6 6 18'));
export const FolderIcon = icon(path('M3.5 7A1.5 1.5 0 0 1 5 5.5h4.2l2 2H19A1.5 1.5 0 0 1 20.5 9v8.5A1.5 1.5 0 0 1 19 19H5a1.5 1.5 0 0 1-1.5-1.5Z'));
export const PaperclipIcon = icon(path('M20 11.5 12.2 19.3a5 5 0 0 1-7.1-7.1l8.2-8.2a3.3 3.3 0 0 1 4.7 4.7l-8.2 8.2a1.7 1.7 0 0 1-2.4-2.4l7.5-7.5'));

/** The Parley mark: two overlapping speech bubbles. */
export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo">
      <rect width="32" height="32" rx="8" className="logo-bg" />
      <path d="M9 10.5A2.5 2.5 0 0 1 11.5 8h9A2.5 2.5 0 0 1 23 10.5v6a2.5 2.5 0 0 1-2.5 2.5H15l-4 3.5V19h.5" className="logo-fg" />
    </svg>
  );
}


import type { MouseEvent, ReactNode } from "react";

/**
 * A real link (it works before hydration and in a new tab) that a hydrated island takes over:
 * a plain click calls `onNavigate` instead of loading the page. Without `href` it is shown disabled.
 */
export function NavLink({ href, onNavigate, className, label, children }: {
  href: string | null;
  onNavigate: () => void;
  className?: string;
  /** accessible name, for icon-only links */
  label?: string;
  children: ReactNode;
}) {
  if (href === null) {
    return (
      <a className={className} role="link" aria-disabled="true" aria-label={label} title={label}>
        {children}
      </a>
    );
  }
  const click = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onNavigate();
  };
  return (
    <a className={className} href={href} onClick={click} aria-label={label} title={label}>
      {children}
    </a>
  );
}

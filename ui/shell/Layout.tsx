import type { ReactNode } from "react";
import type { CurrentUser } from "../../api/lib/context.ts";
import { Icon } from "../components/icons.tsx";
import { Island } from "../lib/island.tsx";
import { APP_TITLES, type AppName, menuFor } from "./menus.ts";
import { CompanyLogo } from "./CompanyLogo.tsx";
import DrawerToggle from "./islands/DrawerToggle.tsx";
import Snackbar from "./islands/Snackbar.tsx";
import LoadingDialog from "./islands/LoadingDialog.tsx";
import PasswordReset from "./islands/PasswordReset.tsx";
import ScanOpen from "./islands/ScanOpen.tsx";

function LogoutForm({ label }: { label?: string }) {
  return (
    <form method="post" action="/signout" className="logout-form">
      {label
        ? (
          <button type="submit" className="drawer-link">
            <Icon name="logout" />
            <span>{label}</span>
          </button>
        )
        : (
          <button type="submit" className="icon-btn" aria-label="Log out" title="Log out">
            <Icon name="logout" />
          </button>
        )}
    </form>
  );
}

/** The shell around every signed-in page: top bar, side drawer, snackbar, loading and reset dialogs. */
export function Layout({ user, path, app = "pt", children }: {
  user: CurrentUser | undefined;
  path: string;
  app?: AppName;
  children: ReactNode;
}) {
  if (!user) return <main className="content content-bare">{children}</main>;
  const menu = menuFor(app, user);
  const apps = (user.company.settings?.apps as unknown[] | undefined) ?? [];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <Island src="ui/shell/islands/DrawerToggle.tsx" component={DrawerToggle} props={{}} />
        <CompanyLogo settings={user.company.settings} name={user.company.name} />
        <span className="app-title">{APP_TITLES[app]}</span>
        <span className="spacer" />
        <Island src="ui/shell/islands/ScanOpen.tsx" component={ScanOpen} props={{}} />
        {Array.isArray(apps) && apps.length > 0 && (
          <a className="icon-btn topbar-apps" href="/" aria-label="Apps" title="Apps">
            <Icon name="apps" />
          </a>
        )}
        <LogoutForm />
      </header>
      <nav id="drawer" className="drawer" aria-label={`${APP_TITLES[app]} menu`}>
        <ul>
          {menu.map((e) => (
            <li key={e.href + e.label}>
              <a
                className="drawer-link"
                href={e.href}
                aria-current={path === e.href ? "page" : undefined}
                title={e.label}
              >
                <Icon name={e.icon} />
                <span>{e.label}</span>
              </a>
            </li>
          ))}
          <li>
            <LogoutForm label="Log Out" />
          </li>
        </ul>
      </nav>
      <main id="main" className="content">{children}</main>
      <Island src="ui/shell/islands/Snackbar.tsx" component={Snackbar} props={{}} />
      <Island src="ui/shell/islands/LoadingDialog.tsx" component={LoadingDialog} props={{}} />
      {user.passwordReset && (
        <Island
          src="ui/shell/islands/PasswordReset.tsx"
          component={PasswordReset}
          props={{ user: { id: user.id, name: user.name, email: user.email, phone: user.phone } }}
        />
      )}
    </div>
  );
}

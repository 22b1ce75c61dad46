import type { CurrentUser } from "../../api/lib/context.ts";

/** 'Welcome <name>!', 'Choose an app:' and Sales & Inventory, enabled when the settings list sales. */
export function Welcome({ user }: { user: CurrentUser }) {
  const apps = user.company.settings?.apps;
  const sales = Array.isArray(apps) && apps.includes("sales");
  return (
    <section className="welcome">
      <h1>{`Welcome ${user.name}!`}</h1>
      <p>Choose an app:</p>
      <div className="app-choices">
        {sales
          ? <a className="btn btn-primary btn-large" href="/sales/tickets">Sales &amp; Inventory</a>
          : <span className="btn btn-large" role="link" aria-disabled="true">Sales &amp; Inventory</span>}
      </div>
    </section>
  );
}

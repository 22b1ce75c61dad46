import type { CurrentUser } from "../../api/lib/context.ts";
import { appChoices } from "../shell/menus.ts";

/**
 * 'Welcome <name>!', 'Choose an app:' and every app: Pressure Testing, and Sales & Inventory, enabled when
 * the settings list sales and the user is the company's own staff; a disabled one says why.
 */
export function Welcome({ user, notice }: { user: CurrentUser; notice?: string }) {
  return (
    <section className="welcome">
      {notice && <p className="notice" role="alert">{notice}</p>}
      <h1>{`Welcome ${user.name}!`}</h1>
      <p>Choose an app:</p>
      <div className="app-choices">
        {appChoices(user).map((a) =>
          a.refusal
            ? (
              <span key={a.app} className="app-choice">
                <span
                  className="btn btn-large"
                  role="link"
                  aria-disabled="true"
                  aria-describedby={`app-${a.app}-why`}
                >
                  {a.title}
                </span>
                <span id={`app-${a.app}-why`} className="field-note">{a.refusal}</span>
              </span>
            )
            : (
              <span key={a.app} className="app-choice">
                <a className="btn btn-primary btn-large" href={a.href}>{a.title}</a>
              </span>
            )
        )}
      </div>
    </section>
  );
}

import { Icon } from "../../components/icons.tsx";
import { useHydrated } from "../../lib/hooks.ts";

const MOBILE = "(max-width: 1023px)";

/** The drawer's desktop form, remembered per browser; the server reads it to render the page collapsed. */
export const DRAWER_COOKIE = "drawer";

/** Collapses the drawer to icons (desktop, remembered in a cookie) or slides it in and out (below 1024 px). */
export default function DrawerToggle() {
  const hydrated = useHydrated();
  const toggle = () => {
    if (matchMedia(MOBILE).matches) document.body.classList.toggle("drawer-open");
    else {
      const mini = document.body.classList.toggle("drawer-mini");
      document.cookie = `${DRAWER_COOKIE}=${mini ? "mini" : "full"}; path=/; max-age=31536000; samesite=lax`;
    }
  };
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label="Toggle menu"
      aria-controls="drawer"
      onClick={toggle}
      disabled={!hydrated}
    >
      <Icon name="menu" />
    </button>
  );
}

import { useEffect } from "react";
import { Icon } from "../../components/icons.tsx";
import { useHydrated } from "../../lib/hooks.ts";

const MOBILE = "(max-width: 1023px)";

/** Collapses the drawer to icons (desktop, remembered) or slides it in and out (below 1024 px). */
export default function DrawerToggle() {
  const hydrated = useHydrated();
  useEffect(() => {
    if (localStorage.getItem("drawerMini") === "1") document.body.classList.add("drawer-mini");
  }, []);
  const toggle = () => {
    if (matchMedia(MOBILE).matches) document.body.classList.toggle("drawer-open");
    else {
      const mini = document.body.classList.toggle("drawer-mini");
      localStorage.setItem("drawerMini", mini ? "1" : "0");
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

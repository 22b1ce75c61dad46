import { Icon } from "../../components/icons.tsx";
import { preloadOn } from "../../lib/lazy_dialog.tsx";

/** An icon button of a line's actions; `preload` starts loading the dialog it opens as it is reached. */
export function LineAction({ icon, label, onPress, preload }: {
  icon: "edit" | "delete" | "history";
  label: string;
  onPress: () => void;
  preload?: () => void;
}) {
  return (
    <button
      type="button"
      className={icon === "delete" ? "icon-btn icon-btn-danger" : "icon-btn"}
      aria-label={label}
      onClick={() => onPress()}
      {...preloadOn(preload)}
    >
      <Icon name={icon} size={20} />
    </button>
  );
}

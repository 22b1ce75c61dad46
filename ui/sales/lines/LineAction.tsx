import { Icon } from "../../components/icons.tsx";

/** An icon button of a line's actions. */
export function LineAction(
  { icon, label, onPress }: { icon: "edit" | "delete" | "history"; label: string; onPress: () => void },
) {
  return (
    <button
      type="button"
      className={icon === "delete" ? "icon-btn icon-btn-danger" : "icon-btn"}
      aria-label={label}
      onClick={() => onPress()}
    >
      <Icon name={icon} size={20} />
    </button>
  );
}

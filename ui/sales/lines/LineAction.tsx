import { Button } from "react-aria-components";
import { Icon } from "../../components/icons.tsx";

/** An icon button of a line's actions. */
export function LineAction(
  { icon, label, onPress }: { icon: "edit" | "delete" | "history"; label: string; onPress: () => void },
) {
  return (
    <Button
      className={icon === "delete" ? "icon-btn icon-btn-danger" : "icon-btn"}
      aria-label={label}
      onPress={onPress}
    >
      <Icon name={icon} size={20} />
    </Button>
  );
}

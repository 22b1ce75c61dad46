import { useEffect, useId, useRef, useState } from "react";
import { Button, ComboBox, Tag, TagGroup, TagList } from "react-aria-components";
import { Icon } from "../../components/icons.tsx";
import { ComboBoxBody } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { useDebounced } from "../../lib/hooks.ts";
import type { JobRow } from "../../../api/pt/jobs/schemas.ts";
import { formatDate } from "../../../lib/format.ts";

interface JobOption {
  id: number;
  label: string;
}

const labelOf = (j: Pick<JobRow, "job_number" | "date">) => `${j.job_number} · ${formatDate(j.date)}`;

/**
 * A Data-Entry user's jobs: an autocomplete over the jobs the admin can see (by job number, 300 ms),
 * the chosen ones as removable chips. Jobs chosen earlier are named by looking each one up; one the
 * admin cannot see keeps its number. The server decides which jobs are allowed ('Unknown job').
 */
export function JobsPicker({ value, onChange, error, onBlur }: {
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string;
  onBlur?: () => void;
}) {
  const [labels, setLabels] = useState<Record<number, string>>({});
  const [input, setInput] = useState("");
  const [found, setFound] = useState<JobOption[]>([]);
  const text = useDebounced(input, 300);
  const asked = useRef(new Set<number>());
  const labelId = useId();

  useEffect(() => {
    if (text !== input) return;
    if (!text.trim()) {
      setFound([]);
      return;
    }
    const ac = new AbortController();
    api<{ results: JobRow[] }>("/api/pt/jobs", {
      query: { search_job_number: text.trim(), rowsPerPage: 20 },
      signal: ac.signal,
    }).then((r) => {
      if (!ac.signal.aborted) setFound(r.results.map((j) => ({ id: j.id, label: labelOf(j) })));
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") console.error("lookup failed", "Jobs", e);
    });
    return () => ac.abort();
  }, [text, input]);

  useEffect(() => {
    const missing = value.filter((id) => !asked.current.has(id));
    for (const id of missing) asked.current.add(id);
    if (missing.length === 0) return;
    Promise.all(missing.map((id) =>
      api<JobRow>(`/api/pt/jobs/${id}`).then((j) => [id, labelOf(j)] as const)
        .catch(() => [id, `Job #${id}`] as const)
    )).then((pairs) => setLabels((l) => ({ ...Object.fromEntries(pairs), ...l })));
  }, [value]);

  const options = found.filter((o) => !value.includes(o.id));
  const chosen = value.map((id) => ({ id, label: labels[id] ?? `Job #${id}` }));

  // The chosen jobs sit between the label and the input, so the open list never covers them.
  return (
    <div className="field">
      <span id={labelId}>Jobs</span>
      {chosen.length > 0 && (
        <TagGroup
          aria-label="Chosen jobs"
          onRemove={(keys) => onChange(value.filter((id) => !keys.has(id)))}
        >
          <TagList className="chips" items={chosen}>
            {(o) => (
              <Tag className="chip" id={o.id} textValue={o.label}>
                {o.label}
                <Button slot="remove" className="chip-remove" aria-label={`Remove ${o.label}`}>
                  <Icon name="close" size={16} />
                </Button>
              </Tag>
            )}
          </TagList>
        </TagGroup>
      )}
      <ComboBox
        className="combobox"
        aria-labelledby={labelId}
        items={options}
        inputValue={input}
        onInputChange={setInput}
        value={null}
        onChange={(key) => {
          const picked = options.find((o) => o.id === key);
          // Escape commits no pick: clear the text, or the list would open again on it (ComboBox.tsx).
          if (!picked) return setInput("");
          setLabels((l) => ({ ...l, [picked.id]: picked.label }));
          asked.current.add(picked.id);
          onChange([...value, picked.id]);
          setInput("");
        }}
        isInvalid={!!error}
        validationBehavior="aria"
        allowsEmptyCollection
        menuTrigger="focus"
        onBlur={onBlur}
      >
        <ComboBoxBody<JobOption>
          label="Jobs"
          error={error}
          text={(o) => o.label}
          placeholder="Search by job number"
        />
      </ComboBox>
    </div>
  );
}

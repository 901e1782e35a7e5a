// The checkbox groups of the report forms (tag, warehouse, area, payment, and the brand,
// category and in/out warehouse groups alike), spec §5: ticking every option turns ALL on;
// unticking ALL clears the selection; ticking ALL ticks every option. A group filters only
// when ALL is off and something is ticked (spec §7: filters are sent only when not 'all'
// and non-empty).

/** One group's state: the ALL box and the ticked option values. */
export interface Choice {
  all: boolean;
  selected: readonly number[];
}

/** ALL on, every option ticked: how each group starts. */
export function allOf(options: readonly number[]): Choice {
  return { all: true, selected: [...options] };
}

/** Ticks or unticks one option; ALL follows whether every option is now ticked. */
export function toggleOption(
  choice: Choice,
  options: readonly number[],
  value: number,
  checked: boolean,
): Choice {
  const rest = choice.selected.filter((v) => v !== value);
  const selected = checked ? options.filter((o) => o === value || rest.includes(o)) : rest;
  const all = options.length > 0 && options.every((o) => selected.includes(o));
  return { all, selected };
}

/** Ticking ALL ticks every option; unticking it clears the selection. */
export function toggleAll(options: readonly number[], checked: boolean): Choice {
  return checked ? allOf(options) : { all: false, selected: [] };
}

/** The values to send, or null when the group does not filter (ALL, or nothing ticked). */
export function filterOf(choice: Choice): number[] | null {
  if (choice.all || choice.selected.length === 0) return null;
  return [...choice.selected];
}

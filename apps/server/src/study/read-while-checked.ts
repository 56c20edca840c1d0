/**
 * Starts `read` while `check` (that the learner may see what is read) is still under way, and answers both once both are
 * done: on PostgreSQL one round trip less. The check decides: when it fails, its error is the answer, even if `read`
 * failed first, and what `read` found is dropped. `read` must therefore only read, and only what the check protects.
 *
 * @example
 * const [group, pairs] = await readWhileChecked(loadVisibleGroup(database, groupId, learner), () => selectSessionCardsInDatabase(database, learner.key, groupId, selection));
 */
export async function readWhileChecked<Checked, Value>(check: Promise<Checked>, read: () => Promise<Value>): Promise<[Checked, Value]> {
  const reading = read();
  // Handled here so that a failed read behind a failed check is not an unhandled rejection; awaited below otherwise.
  reading.catch(() => {});
  const checked = await check;
  return [checked, await reading];
}

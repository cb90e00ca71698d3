// The attribute form's "Needed to be complete on": the publishing channels whose products must carry a value of the
// attribute to be complete (the product list's score, the product editor's checklist). Not enforced on saves.
import { useId } from 'react';
import { useChannels } from './api';
import { channelChoices } from './attribute-form-model';

export function AttributeChannelsField({ selected, error, onChange }: { selected: string[]; error: string | null; onChange: (channels: string[]) => void }) {
  const id = useId();
  const channels = useChannels();
  const choices = channelChoices(channels.data ?? [], selected);
  const toggle = (value: string, on: boolean) => onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  return (
    <fieldset className={`attribute-channels${error ? ' invalid' : ''}`} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}>
      <legend>Needed to be complete on</legend>
      {choices.map((c) => (
        <label key={c.value} className="attribute-channel">
          <input type="checkbox" checked={selected.includes(c.value)} onChange={(e) => toggle(c.value, e.target.checked)} /> {c.label}
        </label>
      ))}
      <small id={`${id}-hint`} className="hint">
        A product on a ticked channel counts as incomplete there until it has a value. Saving a product does not require it.
      </small>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

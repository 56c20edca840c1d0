import * as SliderPrimitive from "@radix-ui/react-slider";
import { useId, useState } from "react";
import { joinClassNames } from "../class-names";

export interface SliderProps {
  /** Visible label above the track; also the thumb's accessible name unless `thumbLabel` is given. */
  label: string;
  /** Accessible name of the thumb (`aria-label`), when it should differ from the visible label. */
  thumbLabel?: string;
  value?: number;
  defaultValue?: number;
  /** Called on every change, while dragging and on each key press. */
  onValueChange?: (value: number) => void;
  /** Called once when the user releases the thumb or presses a key. */
  onValueCommit?: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** Formats the visible value and `aria-valuetext`, e.g. `(value) => \`${value} cm\``. */
  formatValue?: (value: number) => string;
  disabled?: boolean;
  /** Submits the value with a surrounding form under this name. */
  name?: string;
  className?: string;
}

/**
 * A single-thumb slider with a visible label and value (Radix Slider underneath).
 * Arrow keys move by `step`, Page Up/Down by ten steps, Home/End to `min`/`max`.
 *
 * @example
 * <Slider label="Maximum width" min={20} max={200} step={10} value={width} onValueChange={setWidth} formatValue={(value) => `${value} cm`} />
 */
export function Slider({
  label,
  thumbLabel,
  value,
  defaultValue,
  onValueChange,
  onValueCommit,
  min = 0,
  max = 100,
  step = 1,
  formatValue = String,
  disabled = false,
  name,
  className,
}: SliderProps) {
  const labelId = useId();
  const [uncontrolledValue, setUncontrolledValue] = useState(defaultValue ?? min);
  const currentValue = value ?? uncontrolledValue;
  const formattedValue = formatValue(currentValue);

  return (
    <div className={joinClassNames("atelier-slider", className)} data-disabled={disabled ? "" : undefined}>
      <div className="atelier-slider__header">
        <span id={labelId} className="atelier-slider__label">
          {label}
        </span>
        {/* The thumb already exposes the value through aria-valuetext, so this copy is for sighted users only. */}
        <span className="atelier-slider__value" aria-hidden="true">
          {formattedValue}
        </span>
      </div>
      <SliderPrimitive.Root
        className="atelier-slider__root"
        value={[currentValue]}
        onValueChange={([nextValue]) => {
          if (nextValue === undefined) return;
          setUncontrolledValue(nextValue);
          onValueChange?.(nextValue);
        }}
        onValueCommit={([committedValue]) => {
          if (committedValue !== undefined) onValueCommit?.(committedValue);
        }}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        name={name}
        aria-labelledby={labelId}
      >
        <SliderPrimitive.Track className="atelier-slider__track">
          <SliderPrimitive.Range className="atelier-slider__range" />
        </SliderPrimitive.Track>
        <SliderPrimitive.Thumb className="atelier-slider__thumb" aria-label={thumbLabel ?? label} aria-valuetext={formattedValue} />
      </SliderPrimitive.Root>
    </div>
  );
}

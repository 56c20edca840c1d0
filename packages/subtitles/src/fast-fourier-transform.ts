/**
 * In-place iterative radix-2 FFT over separate real and imaginary arrays; `inverse` also divides by the length.
 * Written out here because the whole package needs one cross-correlation, not a dependency.
 */
export function transformInPlace(real: Float64Array, imaginary: Float64Array, inverse: boolean): void {
  const length = real.length;
  if ((length & (length - 1)) !== 0) throw new Error("transformInPlace needs a power-of-two length; this is a bug in the caller.");
  for (let index = 1, reversed = 0; index < length; index += 1) {
    let bit = length >> 1;
    for (; reversed & bit; bit >>= 1) reversed ^= bit;
    reversed ^= bit;
    if (index < reversed) {
      const realValue = real[index] as number;
      real[index] = real[reversed] as number;
      real[reversed] = realValue;
      const imaginaryValue = imaginary[index] as number;
      imaginary[index] = imaginary[reversed] as number;
      imaginary[reversed] = imaginaryValue;
    }
  }
  for (let size = 2; size <= length; size <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const stepReal = Math.cos(angle);
    const stepImaginary = Math.sin(angle);
    const half = size >> 1;
    for (let start = 0; start < length; start += size) {
      let twiddleReal = 1;
      let twiddleImaginary = 0;
      for (let offset = 0; offset < half; offset += 1) {
        const even = start + offset;
        const odd = even + half;
        const oddReal = (real[odd] as number) * twiddleReal - (imaginary[odd] as number) * twiddleImaginary;
        const oddImaginary = (real[odd] as number) * twiddleImaginary + (imaginary[odd] as number) * twiddleReal;
        real[odd] = (real[even] as number) - oddReal;
        imaginary[odd] = (imaginary[even] as number) - oddImaginary;
        real[even] = (real[even] as number) + oddReal;
        imaginary[even] = (imaginary[even] as number) + oddImaginary;
        const nextTwiddleReal = twiddleReal * stepReal - twiddleImaginary * stepImaginary;
        twiddleImaginary = twiddleReal * stepImaginary + twiddleImaginary * stepReal;
        twiddleReal = nextTwiddleReal;
      }
    }
  }
  if (inverse) {
    for (let index = 0; index < length; index += 1) {
      real[index] = (real[index] as number) / length;
      imaginary[index] = (imaginary[index] as number) / length;
    }
  }
}

/**
 * Prepares `result[lag + maximumLag] = Σ reference[k + lag] · other[k]` for lags in [-maximumLag, maximumLag]: the
 * reference is transformed once, and each call transforms one other signal of at most `maximumOtherLength`.
 * Lags beyond the range are never needed, so the transform only has to be longer than the longer signal plus the lag.
 *
 * @example
 * const correlateWith = createCrossCorrelator(Float64Array.of(0, 1, 1), 3, 1);
 * correlateWith(Float64Array.of(1, 1, 0)); // Float64Array [0, 1, 2]
 */
export function createCrossCorrelator(reference: Float64Array, maximumOtherLength: number, maximumLag: number): (other: Float64Array) => Float64Array {
  let length = 1;
  while (length < Math.max(reference.length, maximumOtherLength) + maximumLag + 1) length <<= 1;
  const referenceReal = new Float64Array(length);
  referenceReal.set(reference);
  const referenceImaginary = new Float64Array(length);
  transformInPlace(referenceReal, referenceImaginary, false);
  return (other) => {
    if (other.length > maximumOtherLength) throw new Error("createCrossCorrelator got a longer signal than it was prepared for; this is a bug in the caller.");
    const real = new Float64Array(length);
    real.set(other);
    const imaginary = new Float64Array(length);
    transformInPlace(real, imaginary, false);
    for (let index = 0; index < length; index += 1) {
      const otherReal = real[index] as number;
      const otherImaginary = imaginary[index] as number;
      real[index] = (referenceReal[index] as number) * otherReal + (referenceImaginary[index] as number) * otherImaginary;
      imaginary[index] = (referenceImaginary[index] as number) * otherReal - (referenceReal[index] as number) * otherImaginary;
    }
    transformInPlace(real, imaginary, true);
    const result = new Float64Array(2 * maximumLag + 1);
    for (let lag = -maximumLag; lag <= maximumLag; lag += 1) result[lag + maximumLag] = real[(lag + length) % length] as number;
    return result;
  };
}

/**
 * `result[lag + maximumLag] = Σ reference[k + lag] · other[k]` for every lag in [-maximumLag, maximumLag].
 *
 * @example
 * crossCorrelate(Float64Array.of(0, 1, 1), Float64Array.of(1, 1, 0), 1); // Float64Array [0, 1, 2]
 */
export function crossCorrelate(reference: Float64Array, other: Float64Array, maximumLag: number): Float64Array {
  return createCrossCorrelator(reference, other.length, maximumLag)(other);
}

/**
 * What a transform of one length needs besides the data: each index's bit-reversed index and, per stage, the twiddle
 * factors of both directions, interleaved (real, imaginary). The twiddles are built by the recurrence the butterflies
 * once stepped through themselves, so a transform with a plan gives the same bits as the textbook loop.
 */
interface FourierPlan {
  length: number;
  bitReversed: Int32Array;
  /** The stage of half-size h starts at entry h − 1 (1 + 2 + 4 + … entries before it). */
  forwardTwiddles: Float64Array;
  inverseTwiddles: Float64Array;
}

function createFourierPlan(length: number): FourierPlan {
  if ((length & (length - 1)) !== 0) throw new Error("createFourierPlan needs a power-of-two length; this is a bug in the caller.");
  const bitReversed = new Int32Array(length);
  for (let index = 1, reversed = 0; index < length; index += 1) {
    let bit = length >> 1;
    for (; reversed & bit; bit >>= 1) reversed ^= bit;
    reversed ^= bit;
    bitReversed[index] = reversed;
  }
  const twiddles = (inverse: boolean) => {
    const table = new Float64Array(2 * Math.max(1, length - 1));
    for (let size = 2; size <= length; size <<= 1) {
      const angle = ((inverse ? 2 : -2) * Math.PI) / size;
      const stepReal = Math.cos(angle);
      const stepImaginary = Math.sin(angle);
      const half = size >> 1;
      let twiddleReal = 1;
      let twiddleImaginary = 0;
      for (let offset = 0; offset < half; offset += 1) {
        table[2 * (half - 1 + offset)] = twiddleReal;
        table[2 * (half - 1 + offset) + 1] = twiddleImaginary;
        const nextTwiddleReal = twiddleReal * stepReal - twiddleImaginary * stepImaginary;
        twiddleImaginary = twiddleReal * stepImaginary + twiddleImaginary * stepReal;
        twiddleReal = nextTwiddleReal;
      }
    }
    return table;
  };
  return { length, bitReversed, forwardTwiddles: twiddles(false), inverseTwiddles: twiddles(true) };
}

/**
 * The butterflies of the iterative radix-2 transform over interleaved complex values already in bit-reversed order.
 * With `keptOutputs` = k, only the outputs 0…k and length − k…length − 1 come out right (the others are left as
 * garbage): the butterflies that feed no kept output are skipped.
 */
function runButterflies(data: Float64Array, twiddles: Float64Array, length: number, keptOutputs: number): void {
  let size = 4;
  // With an odd number of stages, the first runs alone; the others run two at a time (below).
  if ((31 - Math.clz32(length)) % 2 === 1) {
    const twiddleReal = twiddles[0] as number;
    const twiddleImaginary = twiddles[1] as number;
    for (let even = 0; even < 2 * length; even += 4) {
      const odd = even + 2;
      const oddReal = (data[odd] as number) * twiddleReal - (data[odd + 1] as number) * twiddleImaginary;
      const oddImaginary = (data[odd] as number) * twiddleImaginary + (data[odd + 1] as number) * twiddleReal;
      const evenReal = data[even] as number;
      const evenImaginary = data[even + 1] as number;
      data[odd] = evenReal - oddReal;
      data[odd + 1] = evenImaginary - oddImaginary;
      data[even] = evenReal + oddReal;
      data[even + 1] = evenImaginary + oddImaginary;
    }
    size = 8;
  }
  // Two stages per pass over the data (the butterflies of size s/2 and s on the same four values), each butterfly
  // exactly as a stage at a time would compute it: half the memory traffic, the same bits.
  for (; size <= length; size <<= 2) {
    const half = size >> 1;
    const quarter = half >> 1;
    // A block's outputs at offsets 0…k and size − k…size − 1 need only the butterflies at offsets 0…k and
    // half − k…half − 1, whose inputs are again at such offsets of the blocks of the stage before.
    const skipFrom = quarter > 2 * keptOutputs + 1 ? keptOutputs + 1 : quarter;
    const skipTo = quarter > 2 * keptOutputs + 1 ? quarter - keptOutputs : quarter;
    const innerTwiddles = 2 * (quarter - 1);
    const outerTwiddles = 2 * (half - 1);
    for (let start = 0; start < length; start += size) {
      for (let offset = 0; offset < quarter; offset = offset + 1 === skipFrom ? skipTo : offset + 1) {
        const first = 2 * (start + offset);
        const second = first + 2 * quarter;
        const third = first + 2 * half;
        const fourth = third + 2 * quarter;
        const innerReal = twiddles[innerTwiddles + 2 * offset] as number;
        const innerImaginary = twiddles[innerTwiddles + 2 * offset + 1] as number;
        let firstReal = data[first] as number;
        let firstImaginary = data[first + 1] as number;
        let secondReal = data[second] as number;
        let secondImaginary = data[second + 1] as number;
        let thirdReal = data[third] as number;
        let thirdImaginary = data[third + 1] as number;
        let fourthReal = data[fourth] as number;
        let fourthImaginary = data[fourth + 1] as number;
        // Stage of size `half`: (first, second) and (third, fourth).
        let productReal = secondReal * innerReal - secondImaginary * innerImaginary;
        let productImaginary = secondReal * innerImaginary + secondImaginary * innerReal;
        secondReal = firstReal - productReal;
        secondImaginary = firstImaginary - productImaginary;
        firstReal = firstReal + productReal;
        firstImaginary = firstImaginary + productImaginary;
        productReal = fourthReal * innerReal - fourthImaginary * innerImaginary;
        productImaginary = fourthReal * innerImaginary + fourthImaginary * innerReal;
        fourthReal = thirdReal - productReal;
        fourthImaginary = thirdImaginary - productImaginary;
        thirdReal = thirdReal + productReal;
        thirdImaginary = thirdImaginary + productImaginary;
        // Stage of size `size`: (first, third) at this offset and (second, fourth) at offset + quarter.
        const outerReal = twiddles[outerTwiddles + 2 * offset] as number;
        const outerImaginary = twiddles[outerTwiddles + 2 * offset + 1] as number;
        productReal = thirdReal * outerReal - thirdImaginary * outerImaginary;
        productImaginary = thirdReal * outerImaginary + thirdImaginary * outerReal;
        data[third] = firstReal - productReal;
        data[third + 1] = firstImaginary - productImaginary;
        data[first] = firstReal + productReal;
        data[first + 1] = firstImaginary + productImaginary;
        const shiftedReal = twiddles[outerTwiddles + 2 * (offset + quarter)] as number;
        const shiftedImaginary = twiddles[outerTwiddles + 2 * (offset + quarter) + 1] as number;
        productReal = fourthReal * shiftedReal - fourthImaginary * shiftedImaginary;
        productImaginary = fourthReal * shiftedImaginary + fourthImaginary * shiftedReal;
        data[fourth] = secondReal - productReal;
        data[fourth + 1] = secondImaginary - productImaginary;
        data[second] = secondReal + productReal;
        data[second + 1] = secondImaginary + productImaginary;
      }
    }
  }
}

/**
 * A real signal, zero-padded to twice the plan's length, packed two samples a complex value (`signal[2n] + i·signal[2n + 1]`)
 * in bit-reversed order: the half-length complex transform of a real one.
 */
function loadRealSignalPackedBitReversed(data: Float64Array, signal: Float64Array, bitReversed: Int32Array): void {
  // Written in order and read scattered (bit reversal is its own inverse): the written array is the larger one.
  for (let index = 0; index < bitReversed.length; index += 1) {
    const source = 2 * (bitReversed[index] as number);
    data[2 * index] = source < signal.length ? (signal[source] as number) : 0;
    data[2 * index + 1] = source + 1 < signal.length ? (signal[source + 1] as number) : 0;
  }
}

/** `e^(-2πik/length)` for k = 0…length/2, interleaved (real, imaginary): what joins the halves of a real signal's spectrum. */
function createRealSplitTwiddles(length: number): Float64Array {
  const half = length >> 1;
  const twiddles = new Float64Array(2 * (half + 1));
  for (let index = 0; index <= half; index += 1) {
    const angle = (-2 * Math.PI * index) / length;
    twiddles[2 * index] = Math.cos(angle);
    twiddles[2 * index + 1] = Math.sin(angle);
  }
  return twiddles;
}

/**
 * The spectrum X[0…n/2] of a real signal of length n from Z, the transform of its samples packed in pairs (length n/2,
 * natural order): with E and O the spectra of the even and odd samples, Z[k] = E[k] + i·O[k], and X[k] = E[k] + W^k·O[k].
 */
function splitPackedSpectrum(spectrum: Float64Array, packed: Float64Array, half: number, splitTwiddles: Float64Array): void {
  for (let index = 0; index <= half; index += 1) {
    const at = 2 * (index === half ? 0 : index);
    const mirror = 2 * (index === 0 ? 0 : half - index);
    const realSum = (packed[at] as number) + (packed[mirror] as number);
    const realDifference = (packed[at] as number) - (packed[mirror] as number);
    const imaginarySum = (packed[at + 1] as number) + (packed[mirror + 1] as number);
    const imaginaryDifference = (packed[at + 1] as number) - (packed[mirror + 1] as number);
    // E = (Z[k] + conj Z[n/2 − k]) / 2, O = (Z[k] − conj Z[n/2 − k]) / 2i.
    const evenReal = realSum / 2;
    const evenImaginary = imaginaryDifference / 2;
    const oddReal = imaginarySum / 2;
    const oddImaginary = -realDifference / 2;
    const twiddleReal = splitTwiddles[2 * index] as number;
    const twiddleImaginary = splitTwiddles[2 * index + 1] as number;
    spectrum[2 * index] = evenReal + twiddleReal * oddReal - twiddleImaginary * oddImaginary;
    spectrum[2 * index + 1] = evenImaginary + twiddleReal * oddImaginary + twiddleImaginary * oddReal;
  }
}

/**
 * The inverse of `splitPackedSpectrum`: from a real signal's spectrum X[0…n/2], the packed Z[0…n/2 − 1] whose inverse
 * transform (length n/2) gives the signal's samples in pairs; written in bit-reversed order, ready for the butterflies.
 */
function joinPackedSpectrumBitReversed(packed: Float64Array, spectrum: Float64Array, half: number, splitTwiddles: Float64Array, bitReversed: Int32Array): void {
  for (let index = 0; index < half; index += 1) {
    const at = 2 * index;
    const mirror = 2 * (half - index);
    // E = (X[k] + conj X[n/2 − k]) / 2, O = (X[k] − conj X[n/2 − k]) / 2 · W^−k, Z = E + i·O.
    const evenReal = ((spectrum[at] as number) + (spectrum[mirror] as number)) / 2;
    const evenImaginary = ((spectrum[at + 1] as number) - (spectrum[mirror + 1] as number)) / 2;
    const differenceReal = ((spectrum[at] as number) - (spectrum[mirror] as number)) / 2;
    const differenceImaginary = ((spectrum[at + 1] as number) + (spectrum[mirror + 1] as number)) / 2;
    const twiddleReal = splitTwiddles[at] as number;
    const twiddleImaginary = splitTwiddles[at + 1] as number;
    const oddReal = differenceReal * twiddleReal + differenceImaginary * twiddleImaginary;
    const oddImaginary = differenceImaginary * twiddleReal - differenceReal * twiddleImaginary;
    const target = 2 * (bitReversed[index] as number);
    packed[target] = evenReal - oddImaginary;
    packed[target + 1] = evenImaginary + oddReal;
  }
}

/**
 * In-place iterative radix-2 FFT over separate real and imaginary arrays; `inverse` also divides by the length.
 * Written out here because the whole package needs one cross-correlation, not a dependency.
 */
export function transformInPlace(real: Float64Array, imaginary: Float64Array, inverse: boolean): void {
  const length = real.length;
  if ((length & (length - 1)) !== 0) throw new Error("transformInPlace needs a power-of-two length; this is a bug in the caller.");
  const plan = createFourierPlan(length);
  const data = new Float64Array(2 * length);
  for (let index = 0; index < length; index += 1) {
    const reversed = plan.bitReversed[index] as number;
    data[2 * reversed] = real[index] as number;
    data[2 * reversed + 1] = imaginary[index] as number;
  }
  runButterflies(data, inverse ? plan.inverseTwiddles : plan.forwardTwiddles, length, length);
  for (let index = 0; index < length; index += 1) {
    real[index] = inverse ? (data[2 * index] as number) / length : (data[2 * index] as number);
    imaginary[index] = inverse ? (data[2 * index + 1] as number) / length : (data[2 * index + 1] as number);
  }
}

/**
 * Prepares `result[lag + maximumLag] = Σ reference[k + lag] · other[k]` for lags in [-maximumLag, maximumLag]: the
 * reference is transformed once, and each call transforms one other signal of at most `maximumOtherLength`.
 * Lags beyond the range are never needed, so the transform only has to be longer than the longer signal plus the lag,
 * and the inverse transform computes only the lags in the range.
 *
 * @example
 * const correlateWith = createCrossCorrelator(Float64Array.of(0, 1, 1), 3, 1);
 * correlateWith(Float64Array.of(1, 1, 0)); // Float64Array [0, 1, 2]
 */
export function createCrossCorrelator(reference: Float64Array, maximumOtherLength: number, maximumLag: number): (other: Float64Array) => Float64Array {
  // At least 4 long, so that each real signal packs into a complex one of at least 2.
  let length = 4;
  while (length < Math.max(reference.length, maximumOtherLength) + maximumLag + 1) length <<= 1;
  // Both signals and the correlation are real: each transform is one of half the length on the samples packed in pairs
  // (about half the work of the full complex transform of a real signal, decision 0071).
  const half = length >> 1;
  const plan = createFourierPlan(half);
  const splitTwiddles = createRealSplitTwiddles(length);
  // One work array for every call: a film's 17 frame-rate ratios would otherwise allocate 17.
  const work = new Float64Array(2 * half);
  const transformRealSignal = (spectrum: Float64Array, signal: Float64Array) => {
    loadRealSignalPackedBitReversed(work, signal, plan.bitReversed);
    runButterflies(work, plan.forwardTwiddles, half, half);
    splitPackedSpectrum(spectrum, work, half, splitTwiddles);
  };
  const referenceSpectrum = new Float64Array(2 * (half + 1));
  transformRealSignal(referenceSpectrum, reference);
  const product = new Float64Array(2 * (half + 1));
  // The lags −maximumLag…maximumLag are the samples 0…maximumLag and length − maximumLag…length − 1, packed at
  // 0…maximumLag/2 and half − maximumLag/2 − 1…half − 1.
  const keptPackedOutputs = (maximumLag >> 1) + 1;
  return (other) => {
    if (other.length > maximumOtherLength) throw new Error("createCrossCorrelator got a longer signal than it was prepared for; this is a bug in the caller.");
    transformRealSignal(product, other);
    for (let index = 0; index < 2 * (half + 1); index += 2) {
      const otherReal = product[index] as number;
      const otherImaginary = product[index + 1] as number;
      const referenceReal = referenceSpectrum[index] as number;
      const referenceImaginary = referenceSpectrum[index + 1] as number;
      product[index] = referenceReal * otherReal + referenceImaginary * otherImaginary;
      product[index + 1] = referenceImaginary * otherReal - referenceReal * otherImaginary;
    }
    joinPackedSpectrumBitReversed(work, product, half, splitTwiddles, plan.bitReversed);
    runButterflies(work, plan.inverseTwiddles, half, keptPackedOutputs);
    const result = new Float64Array(2 * maximumLag + 1);
    // Sample m of the correlation is the real part of packed value m/2 when m is even, its imaginary part when odd.
    for (let lag = -maximumLag; lag <= maximumLag; lag += 1) result[lag + maximumLag] = (work[(lag + length) % length] as number) / half;
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

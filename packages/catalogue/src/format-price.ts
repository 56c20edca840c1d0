const swissFrancFormatter = new Intl.NumberFormat("de-CH", { style: "currency", currency: "CHF", maximumFractionDigits: 2 });

function formatWithSwissGermanLocale(amount: number): string {
  return swissFrancFormatter.format(amount);
}

/**
 * A price in Swiss francs with Swiss German formatting; if formatting throws, 'CHF ' plus two decimals (spec 8).
 * The output's grouping mark depends on the runtime's ICU data (Node 20 prints "'", some browsers "’").
 *
 * @example
 * formatPriceCHF(2750); // "CHF 2'750.00" (with a no-break space after CHF)
 */
export function formatPriceCHF(amount: number, formatter: (amount: number) => string = formatWithSwissGermanLocale): string {
  try {
    return formatter(amount);
  } catch {
    return `CHF ${amount.toFixed(2)}`;
  }
}

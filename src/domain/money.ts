/** Rounds to cents half-to-even (banker's rounding), as money is stored (API.md "Values"). */
export function roundMoney(amount: number): number {
  const cents = amount * 100;
  const floor = Math.floor(cents);
  const diff = cents - floor;
  const EPSILON = 1e-9;
  let rounded: number;
  if (Math.abs(diff - 0.5) < EPSILON) rounded = floor % 2 === 0 ? floor : floor + 1;
  else rounded = Math.round(cents);
  return rounded / 100;
}

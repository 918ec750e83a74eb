import { signal } from '@preact/signals';

const query = matchMedia('(max-width: 640px)');
/** True on a phone-sized screen (the layout stacks; list rows are taller). */
export const narrow = signal(query.matches);
query.addEventListener('change', () => {
  narrow.value = query.matches;
});

/** Deterministic pseudo-random text, so every run of a size generates the same content. */

export function random(seed) {
  // mulberry32
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = {
  en: (
    'content team release garden river market design system north light studio product field library signal harbor travel winter summer orange ' +
    'copper silver story journey simple modern quiet bright local global service partner update feature guide center mountain window coffee ' +
    'paper stone cloud forest ocean city bridge engine planet museum archive record voice music table letter morning evening future history'
  ).split(' '),
  de: (
    'inhalt team version garten fluss markt gestaltung system norden licht atelier produkt feld bibliothek signal hafen reise winter sommer orange ' +
    'kupfer silber geschichte weg einfach modern ruhig hell lokal global dienst partner neuigkeit funktion leitfaden zentrum berg fenster ' +
    'kaffee papier stein wolke wald meer stadt brücke motor planet museum archiv aufnahme stimme musik tisch brief morgen abend zukunft'
  ).split(' '),
  fr: (
    'contenu équipe version jardin rivière marché conception système nord lumière atelier produit champ bibliothèque signal port voyage hiver été ' +
    'orange cuivre argent histoire chemin simple moderne calme clair local global service partenaire nouvelle fonction guide centre montagne ' +
    'fenêtre café papier pierre nuage forêt océan ville pont moteur planète musée archive disque voix musique table lettre matin soir avenir'
  ).split(' '),
};

export function textFor(locale, rand) {
  const words = WORDS[locale] ?? WORDS.en;
  const word = () => words[Math.floor(rand() * words.length)];
  const sentence = (count) => {
    const parts = Array.from({ length: count }, word);
    parts[0] = parts[0][0].toUpperCase() + parts[0].slice(1);
    return `${parts.join(' ')}.`;
  };
  const paragraph = (sentences) =>
    Array.from({ length: sentences }, () => sentence(6 + Math.floor(rand() * 10))).join(' ');
  const title = (count = 3) => sentence(count).slice(0, -1);
  return {
    word,
    sentence,
    paragraph,
    title,
    pick: (list) => list[Math.floor(rand() * list.length)],
    chance: (p) => rand() < p,
    int: (n) => Math.floor(rand() * n),
  };
}

export interface Tile {
  value: string;
  label: string;
}

export interface Card {
  title: string;
  text: string;
}

// Drawing the board: 7 files x 9 ranks, the player's side at the bottom,
// water, traps and dens, the animals with their ranks, the selected animal,
// its legal targets and the last move.

const ANIMALS = { rat: 1, cat: 2, dog: 3, wolf: 4, leopard: 5, tiger: 6, lion: 7, elephant: 8 };

/** Squares in display order (top-left first) for a player of `side`. */
function displayOrder(side) {
  const order = [];
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 7; col++) {
      const rank = side === 'south' ? 8 - row : row;
      const file = side === 'south' ? col : 6 - col;
      order.push(rank * 7 + file);
    }
  }
  return order;
}

/**
 * Draws into `element`. `view`: names (63 square names), terrain (63),
 * board (63: '' or 'side animal'), side (the player's), selected (a square
 * index or null), targets (square indices), last (the last move's two
 * square indices), onClick(index).
 */
export function drawBoard(element, view) {
  element.replaceChildren();
  for (const index of displayOrder(view.side)) {
    const square = document.createElement('div');
    square.className = 'square';
    for (const word of view.terrain[index].split(' ')) {
      if (['water', 'trap', 'den'].includes(word)) square.classList.add(word);
    }
    square.dataset.square = view.names[index];
    if (index === view.selected) square.classList.add('selected');
    if (view.targets.includes(index)) square.classList.add('target');
    if (view.last.includes(index)) square.classList.add('last');
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = view.names[index];
    square.append(label);
    if (view.board[index]) {
      const [side, animal] = view.board[index].split(' ');
      const piece = document.createElement('div');
      piece.className = `piece ${side}`;
      piece.dataset.piece = view.board[index];
      piece.title = `${side} ${animal}`;
      piece.innerHTML = `<span>${animal[0].toUpperCase()}${animal.slice(1, 3)}</span><span class="rank">${ANIMALS[animal]}</span>`;
      square.append(piece);
    }
    square.addEventListener('click', () => view.onClick(index));
    element.append(square);
  }
}

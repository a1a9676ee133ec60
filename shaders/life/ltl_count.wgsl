// Larger than Life, pass 2 (src/step/gpu_cells/ltl/mod.rs): each thread owns one column and
// walks p.run rows down it. Its cells' counts come from the prefix rows of pass 1: for the
// Moore square a running column sum of the rows' window sums (the row entering the window
// added, the row leaving it subtracted: O(1) per cell whatever r is); for other plain
// shapes two reads per run of the shape's rows; weighted shapes read every cell; the
// Gaussian (mode 4) a running tent of its rows' tent sums, O(r) per cell; for the von Neumann diamond (mode 3) a running diamond sum from the diagonal sums
// of ltl_diagonal.wgsl (the upper edge leaving, the lower edge entering: four diagonal
// runs, O(1) per cell whatever r is; below r = 128 ltl_diamond4.wgsl counts the diamond
// instead). Then Golly's transition (ltl_emit.wgsl) and the cell word's age or decay state.

//!include life/ltl_params.wgsl
//!include life/ltl_emit.wgsl
//!include life/ltl_windows.wgsl
// Mode 0 at large r: each column's sum of the windows of every block of `p.blocks` rows
// (ltl_blocks.wgsl; p.blocks divides r).
@group(0) @binding(6) var<storage, read> blocks: array<u32>;
// Mode 1: (dy + range, lo + range, hi + range + 1) per run; mode 2: (dx, dy, weight) as
// i32 per cell, then one weight per state.
@group(0) @binding(4) var<storage, read> shape: array<i32>;

fn state_at(x: i32, y: i32) -> u32 {
    var cx = x;
    var cy = y;
    if (x < 0 || x >= i32(p.width) || y < 0 || y >= i32(p.height)) {
        if (p.torus == 0u) {
            return 0u;
        }
        cx = ((x % i32(p.width)) + i32(p.width)) % i32(p.width);
        cy = ((y % i32(p.height)) + i32(p.height)) % i32(p.height);
    }
    return state_of(src[u32(cy + 1) * p.pitch + u32(cx)]);
}

// Mode 3 at r >= 128 (16-bit sums, a column a thread): diagonal sum `dir` (0 main, 1 anti)
// at skewed position q of extended row ye.
fn diag_at(dir: u32, ye: u32, q: u32) -> u32 {
    let half = (dir * (p.height + 2u * p.range) + ye) * p.stride + q;
    return (prefix[half >> 1u] >> ((half & 1u) * 16u)) & 0xffffu;
}

// Mode 3: the state-1 cells of diagonal `dir` at skewed position q, rows y_top..=y_bottom
// (at most p.band rows, a power of two, so at most one restart between them).
fn diag_run(dir: u32, q: u32, y_top: u32, y_bottom: u32) -> u32 {
    let mask = p.band - 1u;
    var sum = diag_at(dir, y_bottom, q);
    if ((y_top & mask) != 0u) {
        sum -= diag_at(dir, y_top - 1u, q);
    }
    if ((y_top ^ y_bottom) > mask) {
        sum += diag_at(dir, (y_bottom & ~mask) - 1u, q);
    }
    return sum & 0xffffu;
}

// Mode 3: the whole diamond about world cell (x, y), one anti-diagonal run per u = dx + dy.
fn diamond(x: u32, y: u32) -> u32 {
    let r = i32(p.range);
    let xe = i32(x) + r;
    let ye = i32(y) + r;
    var sum = 0u;
    // The run's top cell: dx = u - (top - ye); its anti-diagonal: xe + dx + top = xe + u +
    // ye, one column further each step (wrapped by a compare, not a division).
    let ext_w = p.width + 2u * p.range;
    var q = u32(xe - r + ye) % ext_w;
    for (var u = -r; u <= r; u++) {
        // dx - dy = v with |v| <= r and v = u (mod 2): rows ye + (u - v_max) / 2 ..= ye + (u + v_max) / 2
        let v_max = r - (r - u) % 2;
        let top = ye + (u - v_max) / 2;
        sum += diag_run(1u, q, u32(top), u32(ye + (u + v_max) / 2));
        q = wrap(q + 1u, ext_w);
    }
    return sum;
}

// Mode 3: how the diamond's count changes from (x, y - 1) to (x, y), wrapping as u32:
// the upper edge of the diamond about (x, y - 1) leaves (apex (xe, ye - r - 1)), the lower
// edge of the diamond about (x, y) enters (apex (xe, ye + r)). `yw` is ye mod ext_w; each
// run is read at its top cell's position, main (xe - ye) or anti (xe + ye) mod ext_w.
fn diamond_step(xe: u32, ext_w: u32, y: u32, yw: u32) -> u32 {
    let ye = y + p.range;
    let up = ye - 1u - p.range;
    let low = ye + p.range;
    let leaving = diag_run(1u, wrap3(xe + yw + ext_w - 1u - p.range, ext_w), up, ye - 1u)
        + diag_run(0u, wrap3(xe + 1u + p.range + ext_w - yw, ext_w), up + 1u, ye - 1u);
    let entering = diag_run(0u, wrap(xe - p.range + ext_w - yw, ext_w), ye, low)
        + diag_run(1u, wrap3(xe + p.range + yw, ext_w), ye, low - 1u);
    return entering - leaving;
}

// -1 where a triangular grid's cell (x, y) counts its shape upside down, else 1.
fn flip_sign(x: u32, y: i32) -> i32 {
    return select(1, -1, p.flip == 1u && ((x + u32(y)) & 1u) == 1u);
}

// Mode 4: row y's tent sum about x, sum over |dx| <= r of (r + 1 - |dx|) state-1 cells: the
// windows of half-widths 0..=r added up (0 beyond a dead border).
fn row_tent(y: i32, x: u32) -> u32 {
    let row = prefix_row(y);
    if (row < 0) {
        return 0u;
    }
    let centre = x + p.range;
    var sum = 0u;
    for (var k = 0u; k <= p.range; k++) {
        sum += prefix_at(u32(row), centre + k + 1u) - prefix_at(u32(row), centre - k);
    }
    return sum;
}

// Mode 4: Golly's Gaussian count of (x, y) from its tent sum `tent`: an occupied cell adds
// one to its own count.
fn gaussian(x: u32, y: u32, tent: u32) -> i32 {
    return i32(tent) + select(0, 1, state_at(i32(x), i32(y)) != 0u);
}

fn count_runs(x: u32, y: i32) -> i32 {
    var count = 0u;
    let sign = flip_sign(x, y);
    for (var k = 0u; k < p.items; k++) {
        let row = prefix_row(y + sign * (shape[3u * k] - i32(p.range)));
        if (row < 0) {
            continue;
        }
        count += prefix_at(u32(row), x + u32(shape[3u * k + 2u]))
            - prefix_at(u32(row), x + u32(shape[3u * k + 1u]));
    }
    return i32(count);
}

fn count_weighted(x: u32, y: i32) -> i32 {
    var count = 0;
    let weights = 3u * p.items;
    let sign = flip_sign(x, y);
    for (var k = 0u; k < p.items; k++) {
        let s = state_at(i32(x) + shape[3u * k], y + sign * shape[3u * k + 1u]);
        count += shape[3u * k + 2u] * shape[weights + s];
    }
    if (p.bonus == 1u && state_at(i32(x), y) != 0u) {
        count += 1;
    }
    return count;
}

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let y0 = id.y * p.run;
    if (x >= p.width || y0 >= p.height) {
        return;
    }
    let y1 = min(y0 + p.run, p.height);
    let r = i32(p.range);
    var column = 0u;
    if (p.mode == 0u) {
        if (p.blocks != 0u && y0 >= p.range && y0 + p.range < p.height) {
            // A run of one block (p.blocks divides r) whose window lies inside the grid:
            // the 2r / p.blocks blocks from r rows up, then the window r rows down.
            let first = (y0 - p.range) / p.blocks;
            let last = (y0 + p.range) / p.blocks;
            for (var k = first; k < last; k++) {
                column += blocks[k * p.width + x];
            }
            column += window(i32(y0) + r, x);
        } else {
            column = windows(i32(y0) - r, i32(y0) + r, x);
        }
        // The running column sum, four rows a step: the eight windows entering and leaving
        // are loaded together before the four counts use them.
        emit(x, y0, i32(column));
        var y = y0 + 1u;
        for (; y + 3u < y1; y += 4u) {
            let yi = i32(y);
            let e0 = window(yi + r, x);
            let e1 = window(yi + r + 1, x);
            let e2 = window(yi + r + 2, x);
            let e3 = window(yi + r + 3, x);
            let l0 = window(yi - r - 1, x);
            let l1 = window(yi - r, x);
            let l2 = window(yi - r + 1, x);
            let l3 = window(yi - r + 2, x);
            column = column + e0 - l0;
            emit(x, y, i32(column));
            column = column + e1 - l1;
            emit(x, y + 1u, i32(column));
            column = column + e2 - l2;
            emit(x, y + 2u, i32(column));
            column = column + e3 - l3;
            emit(x, y + 3u, i32(column));
        }
        for (; y < y1; y++) {
            column = column + window(i32(y) + r, x) - window(i32(y) - r - 1, x);
            emit(x, y, i32(column));
        }
        return;
    }
    if (p.mode == 4u) {
        // The tent of row tents T(y) = sum (r + 1 - |dy|) H(y + dy), run down the column:
        // T(y + 1) = T(y) + A - B with A the r + 1 row tents below y, B the r + 1 from y up.
        let r = i32(p.range);
        let yi = i32(y0);
        var tent = 0u;
        var below = 0u;
        var above = 0u;
        for (var dy = -r; dy <= r + 1; dy++) {
            let h = row_tent(yi + dy, x);
            if (dy <= r) {
                tent += u32(r + 1 - abs(dy)) * h;
            }
            if (dy > 0) {
                below += h;
            } else {
                above += h;
            }
        }
        emit(x, y0, gaussian(x, y0, tent));
        for (var y = y0 + 1u; y < y1; y++) {
            let yp = i32(y) - 1;
            tent = tent + below - above;
            let next = row_tent(yp + 1, x);
            below = below + row_tent(yp + r + 2, x) - next;
            above = above + next - row_tent(yp - r, x);
            emit(x, y, gaussian(x, y, tent));
        }
        return;
    }
    if (p.mode == 3u) {
        // The running diamond sum, two rows a step: both rows' diagonal runs are loaded
        // before either count uses them.
        column = diamond(x, y0);
        emit(x, y0, i32(column));
        let xe = x + p.range;
        let ext_w = p.width + 2u * p.range;
        var yw = (y0 + p.range) % ext_w;
        var y = y0 + 1u;
        for (; y + 1u < y1; y += 2u) {
            let yw0 = wrap(yw + 1u, ext_w);
            let yw1 = wrap(yw0 + 1u, ext_w);
            let d0 = diamond_step(xe, ext_w, y, yw0);
            let d1 = diamond_step(xe, ext_w, y + 1u, yw1);
            column = column + d0;
            emit(x, y, i32(column));
            column = column + d1;
            emit(x, y + 1u, i32(column));
            yw = yw1;
        }
        if (y < y1) {
            column = column + diamond_step(xe, ext_w, y, wrap(yw + 1u, ext_w));
            emit(x, y, i32(column));
        }
        return;
    }
    for (var y = y0; y < y1; y++) {
        var count = 0;
        if (p.mode == 1u) {
            count = count_runs(x, i32(y));
        } else {
            count = count_weighted(x, i32(y));
        }
        emit(x, y, count);
    }
}

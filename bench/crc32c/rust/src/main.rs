//! CRC32C throughput, side by side: portkit (C library over FFI), the crc-fast
//! and crc32c crates, and plain memory reads of the same buffer, as one stream
//! and as four (the physical limit). For each size the contenders take turns on the same buffer, in a
//! rotating order, for ROUNDS rounds; each sample times enough calls to span
//! ~5 ms (one call for 64 MiB). Prints medians with min..max, and a markdown
//! table with --markdown.
//!
//!   crc32c-bench [--rounds N] [--markdown] [SIZE...]
use std::hint::black_box;
use std::time::Instant;

extern "C" {
    fn pk_crc32c(crc: u32, buf: *const u8, len: usize) -> u32;
    fn pk_crc32c_implementation() -> *const std::os::raw::c_char;
}

fn portkit(data: &[u8]) -> u32 {
    unsafe { pk_crc32c(0, data.as_ptr(), data.len()) }
}

fn crc_fast_iscsi(data: &[u8]) -> u32 {
    crc_fast::crc32_iscsi(data)
}

fn crc32c_crate(data: &[u8]) -> u32 {
    crc32c::crc32c(data)
}

/// Reads every byte once into four independent accumulators: what a CRC that
/// costs nothing would take. 256-bit loads where the CPU has AVX2.
fn memread(data: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        return unsafe { memread_avx2(data) };
    }
    let mut acc = [0u64; 4];
    let chunks = data.chunks_exact(32);
    let tail = chunks.remainder();
    for c in chunks {
        for (i, a) in acc.iter_mut().enumerate() {
            *a ^= u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
        }
    }
    let mut r = acc.iter().fold(0, |x, y| x ^ y) as u32;
    for &b in tail {
        r ^= b as u32;
    }
    r
}

/// The same read over four far-apart quarters at once: four sequential
/// streams, which the hardware prefetchers serve better than one (on this VM
/// one stream tops out well below the memory's bandwidth).
fn memread4(data: &[u8]) -> u32 {
    let q = data.len() / 4;
    let mut r = 0;
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        r = unsafe { memread4_avx2(data.as_ptr(), q) };
        return r ^ memread(&data[4 * q..]);
    }
    for part in data.chunks(q.max(1)) {
        r ^= memread(part);
    }
    r
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn memread4_avx2(p: *const u8, quarter: usize) -> u32 {
    use std::arch::x86_64::*;
    let mut acc = [_mm256_setzero_si256(); 4];
    let mut i = 0;
    while i + 32 <= quarter {
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_xor_si256(
                *a,
                _mm256_loadu_si256(p.add(k * quarter + i) as *const __m256i),
            );
        }
        i += 32;
    }
    let x = _mm256_xor_si256(
        _mm256_xor_si256(acc[0], acc[1]),
        _mm256_xor_si256(acc[2], acc[3]),
    );
    let mut r = (_mm256_extract_epi32(x, 0) ^ _mm256_extract_epi32(x, 7)) as u32;
    for k in 0..4 {
        for j in i..quarter {
            r ^= *p.add(k * quarter + j) as u32;
        }
    }
    r
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn memread_avx2(data: &[u8]) -> u32 {
    use std::arch::x86_64::*;
    let (mut a, mut b, mut c, mut d) = (
        _mm256_setzero_si256(),
        _mm256_setzero_si256(),
        _mm256_setzero_si256(),
        _mm256_setzero_si256(),
    );
    let p = data.as_ptr();
    let mut i = 0;
    while i + 128 <= data.len() {
        a = _mm256_xor_si256(a, _mm256_loadu_si256(p.add(i) as *const __m256i));
        b = _mm256_xor_si256(b, _mm256_loadu_si256(p.add(i + 32) as *const __m256i));
        c = _mm256_xor_si256(c, _mm256_loadu_si256(p.add(i + 64) as *const __m256i));
        d = _mm256_xor_si256(d, _mm256_loadu_si256(p.add(i + 96) as *const __m256i));
        i += 128;
    }
    let x = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
    let mut r = (_mm256_extract_epi32(x, 0) ^ _mm256_extract_epi32(x, 7)) as u32;
    for &byte in &data[i..] {
        r ^= byte as u32;
    }
    r
}

/// Core clock in Hz: a chain of dependent 1-cycle adds, timed.
fn measure_hz() -> f64 {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let n: u64 = 50_000_000;
        let t = Instant::now();
        let mut x: u64 = black_box(1);
        for _ in 0..n {
            // Eight dependent adds per iteration: the loop overhead hides under them.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                std::arch::asm!("add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1",
                                "add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1", inout(reg) x);
            }
            #[cfg(target_arch = "aarch64")]
            unsafe {
                std::arch::asm!("add {0}, {0}, 1", "add {0}, {0}, 1", "add {0}, {0}, 1", "add {0}, {0}, 1",
                                "add {0}, {0}, 1", "add {0}, {0}, 1", "add {0}, {0}, 1", "add {0}, {0}, 1",
                                inout(reg) x);
            }
        }
        black_box(x);
        best = best.min(t.elapsed().as_secs_f64() / (8 * n) as f64);
    }
    1.0 / best
}

fn parse_size(s: &str) -> usize {
    let (num, mult) = match s.chars().last() {
        Some('k' | 'K') => (&s[..s.len() - 1], 1 << 10),
        Some('m' | 'M') => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    num.parse::<usize>().expect("size") * mult
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

type Contender = (&'static str, fn(&[u8]) -> u32);

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 21;
    let mut markdown = false;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args[i + 1].parse().expect("--rounds N");
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--markdown") {
        markdown = true;
        args.remove(i);
    }
    let sizes: Vec<usize> = if args.is_empty() {
        vec![64, 4 << 10, 64 << 10, 1 << 20, 64 << 20]
    } else {
        args.iter().map(|s| parse_size(s)).collect()
    };
    let contenders: [Contender; 5] = [
        ("portkit", portkit),
        ("crc-fast", crc_fast_iscsi),
        ("crc32c crate", crc32c_crate),
        ("memory read", memread),
        ("memory read, 4 streams", memread4),
    ];
    let hz = measure_hz();
    let implementation = unsafe { std::ffi::CStr::from_ptr(pk_crc32c_implementation()) };
    println!(
        "clock {:.2} GHz (dependent adds); portkit implementation: {}; rounds {rounds}",
        hz / 1e9,
        implementation.to_string_lossy()
    );

    let mut rows = Vec::new();
    for &size in &sizes {
        // Same buffer for everyone, 16-byte aligned like a typical allocation.
        let buf: Vec<u8> = (0..size + 64)
            .map(|i| (i as u32).wrapping_mul(2654435761) as u8 ^ (i >> 8) as u8)
            .collect();
        let data = &buf[16..16 + size];
        let want = portkit(data);
        for (name, f) in &contenders[..3] {
            assert_eq!(f(data), want, "{name} disagrees at {size} bytes");
        }
        let calls: Vec<usize> = contenders
            .iter()
            .map(|(_, f)| {
                let mut n = 1usize;
                loop {
                    let t = Instant::now();
                    for _ in 0..n {
                        black_box(f(black_box(data)));
                    }
                    if t.elapsed().as_secs_f64() > 5e-3 || n >= 1 << 30 {
                        break n;
                    }
                    n *= 2;
                }
            })
            .collect();
        let mut secs = vec![Vec::with_capacity(rounds); contenders.len()];
        for r in 0..rounds {
            for k in 0..contenders.len() {
                let j = (r + k) % contenders.len();
                let f = contenders[j].1;
                let t = Instant::now();
                for _ in 0..calls[j] {
                    black_box(f(black_box(data)));
                }
                secs[j].push(t.elapsed().as_secs_f64() / calls[j] as f64);
            }
        }
        let stats: Vec<(f64, f64, f64)> = secs
            .iter_mut()
            .map(|v| {
                let m = median(v);
                (m, v[0], v[v.len() - 1])
            })
            .collect();
        rows.push((size, stats));
    }

    let gbs = |size: usize, s: f64| size as f64 / s / 1e9;
    if markdown {
        print!("| size |");
        for (name, _) in &contenders {
            print!(" {name} GB/s |");
        }
        println!(" portkit / crc-fast | portkit / crc32c crate | portkit / best memory read | portkit bytes/cycle |");
        println!(
            "|---:|{}---:|---:|---:|---:|",
            "---:|".repeat(contenders.len())
        );
    }
    for (size, stats) in &rows {
        let pk = stats[0].0;
        if markdown {
            print!("| {} |", human(*size));
            for (m, lo, hi) in stats {
                print!(
                    " {:.2} ({:.2}–{:.2}) |",
                    gbs(*size, *m),
                    gbs(*size, *hi),
                    gbs(*size, *lo)
                );
            }
            let best_read = stats[3].0.min(stats[4].0);
            println!(
                " {:.2} | {:.2} | {:.2} | {:.2} |",
                stats[1].0 / pk,
                stats[2].0 / pk,
                best_read / pk,
                *size as f64 / (pk * hz)
            );
        } else {
            print!("{:>8}", human(*size));
            for ((name, _), (m, lo, hi)) in contenders.iter().zip(stats) {
                print!(
                    "  {name}: {:.2} GB/s [{:.2}-{:.2}] {:.1} ns",
                    gbs(*size, *m),
                    gbs(*size, *hi),
                    gbs(*size, *lo),
                    m * 1e9
                );
            }
            println!("  | portkit {:.2} B/cycle", *size as f64 / (pk * hz));
        }
    }
}

fn human(size: usize) -> String {
    match size {
        s if s >= 1 << 20 && s % (1 << 20) == 0 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 && s % (1 << 10) == 0 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}

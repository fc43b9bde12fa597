//! A block of read events as bytes and back, so that a browser worker that parses blocks can hand
//! them to the worker that scores them: workers share no memory (issue 9, the page's second core).
//!
//! The bytes are this build's own (both ends run the same wasm), not a file format: little-endian
//! numbers, LEB128 lengths, `f64` as its bits. An encoder and its decoder keep a little state
//! across the blocks of one file, mirrored: the last option list (items of a file nearly always
//! share one) and the group names numbered so far, so that decoded items share them as the read
//! ones did (`Groups` and the explorer then find a group by its address).

use super::canonical_chunks::{Block, Event};
use super::Meta;
use crate::id_set::IdSet;
use crate::items::{
    Body, ConsistencyItem, Item, Modality, MultiItem, OptionItem, OptionKind, Probs, Split, Tier,
};
use crate::short::{ShortStr, ShortVec};
use crate::warning::Warning;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Group names an encoder numbers; past them each item's group is written out in full (the
/// reader itself stops sharing names sooner, `canonical_item::Labels`).
const GROUPS: usize = 4096;

/// Why a block's bytes could not be read back; only a bug (or bytes from another build) gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadBlock(pub &'static str);

impl std::fmt::Display for BadBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a parsed block could not be read back: {}", self.0)
    }
}

/// Writes the blocks of one file, in order.
#[derive(Debug, Default)]
pub struct Encoder {
    last: Option<Arc<[String]>>,
    /// Numbered group names by address; `held` keeps each alive, so that no other name can
    /// take its address while it is numbered.
    numbers: FxHashMap<usize, u32>,
    held: Vec<Arc<str>>,
}

/// Reads the blocks one `Encoder` wrote, in the same order.
#[derive(Debug, Default)]
pub struct Decoder {
    last: Option<Arc<[String]>>,
    groups: Vec<Arc<str>>,
}

impl Encoder {
    /// Appends `block` to `out`.
    pub fn encode(&mut self, block: &Block, out: &mut Vec<u8>) {
        let mut w = Writer(out);
        w.num(block.lines);
        w.num(block.events.len() as u64);
        for event in &block.events {
            match event {
                Event::Item(item) => {
                    w.byte(0);
                    self.item(&mut w, item);
                }
                Event::Skip(warning) => {
                    w.byte(1);
                    w.warning(warning);
                }
                Event::Warn(warning) => {
                    w.byte(2);
                    w.warning(warning);
                }
                Event::Meta(key, value) => {
                    w.byte(3);
                    w.byte(meta_code(*key));
                    w.str(value);
                }
            }
        }
    }

    fn item(&mut self, w: &mut Writer, item: &Item) {
        w.str(&item.id);
        w.opt_num(item.line);
        match &item.group {
            None => w.byte(0),
            Some(name) => match self.numbers.get(&address(name)) {
                Some(&n) => {
                    w.byte(1);
                    w.num(n.into());
                }
                None if self.held.len() < GROUPS => {
                    self.numbers.insert(address(name), self.held.len() as u32);
                    self.held.push(Arc::clone(name));
                    w.byte(2);
                    w.str(name);
                }
                None => {
                    w.byte(3);
                    w.str(name);
                }
            },
        }
        w.byte(item.tier.map_or(0, |t| t as u8 + 1));
        w.byte(item.split.map_or(0, |s| s as u8 + 1));
        w.byte(item.modality.map_or(0, |m| m as u8 + 1));
        match &item.body {
            Body::Option(o) => {
                w.byte(0);
                w.byte(o.kind as u8);
                if self
                    .last
                    .as_ref()
                    .is_some_and(|l| Arc::ptr_eq(l, &o.options))
                {
                    w.byte(0);
                } else {
                    w.byte(1);
                    w.strs(&o.options);
                    self.last = Some(Arc::clone(&o.options));
                }
                w.num(o.gold as u64);
                w.opt_f64s(o.gold_probs.as_deref());
                w.opt_num(o.answer.map(|a| a as u64));
                match &o.probs {
                    None => w.byte(0),
                    Some(p) => {
                        w.byte(1);
                        w.f64s(&p.p);
                        w.f64(p.sum);
                        w.opt_f64(p.outside);
                    }
                }
            }
            Body::Multi(m) => {
                w.byte(1);
                w.strs(&m.options);
                w.nums(&m.gold);
                match &m.answer {
                    None => w.byte(0),
                    Some(a) => {
                        w.byte(1);
                        w.nums(a);
                    }
                }
                match &m.steps {
                    None => w.byte(0),
                    Some(steps) => {
                        w.byte(1);
                        w.num(steps.len() as u64);
                        for step in steps {
                            w.f64s(step);
                        }
                    }
                }
            }
            Body::Pair { chosen, rejected } => {
                w.byte(2);
                w.f64(*chosen);
                w.f64(*rejected);
            }
            Body::BestOfN {
                scores,
                num_correct,
            } => {
                w.byte(3);
                w.f64s(scores);
                w.num(*num_correct as u64);
            }
            Body::Consistency(c) => {
                w.byte(4);
                w.num(c.sizes.0 as u64);
                w.num(c.sizes.1 as u64);
                w.num(c.consistent_pairs as u64);
                w.byte(c.consistent.map_or(0, |b| b as u8 + 1));
            }
            Body::Graded {
                credit,
                gold,
                answer,
            } => {
                w.byte(5);
                w.f64(*credit);
                w.str(gold);
                match answer {
                    None => w.byte(0),
                    Some(a) => {
                        w.byte(1);
                        w.str(a);
                    }
                }
            }
        }
    }
}

impl Decoder {
    /// Reads a block `Encoder::encode` wrote into `out` (its lists emptied first, their memory
    /// kept), with each item's `IdSet::hash` as `read_block` gives it.
    pub fn decode(&mut self, bytes: &[u8], out: &mut Block) -> Result<(), BadBlock> {
        let mut r = Reader { bytes, at: 0 };
        out.events.clear();
        out.id_hashes.clear();
        out.lines = r.num()?;
        let events = r.len()?;
        out.events.reserve(events.min(bytes.len()));
        for _ in 0..events {
            let event = match r.byte()? {
                0 => {
                    let item = self.item(&mut r)?;
                    out.id_hashes.push(IdSet::hash_bytes(item.id.as_bytes()));
                    Event::Item(item)
                }
                1 => Event::Skip(r.warning()?),
                2 => Event::Warn(r.warning()?),
                3 => Event::Meta(meta_of(r.byte()?)?, r.string()?),
                _ => return Err(BadBlock("unknown event")),
            };
            out.events.push(event);
        }
        match r.at == bytes.len() {
            true => Ok(()),
            false => Err(BadBlock("bytes after the last event")),
        }
    }

    fn item(&mut self, r: &mut Reader) -> Result<Item, BadBlock> {
        let id = ShortStr::from(r.str()?);
        let line = r.opt_num()?;
        let group = match r.byte()? {
            0 => None,
            1 => Some(Arc::clone(
                self.groups.get(r.len()?).ok_or(BadBlock("unknown group"))?,
            )),
            2 => {
                let name: Arc<str> = r.str()?.into();
                self.groups.push(Arc::clone(&name));
                Some(name)
            }
            3 => Some(r.str()?.into()),
            _ => return Err(BadBlock("bad group")),
        };
        let tier = pick(
            r.byte()?,
            &[Tier::Easy, Tier::Standard, Tier::Judge, Tier::Hard],
        )?;
        let split = pick(r.byte()?, &[Split::Open, Split::Sealed])?;
        let modality = pick(r.byte()?, &[Modality::Text, Modality::Image])?;
        let body = match r.byte()? {
            0 => Body::Option(self.option(r)?),
            1 => Body::Multi(MultiItem {
                options: r.strings()?,
                gold: r.nums()?,
                answer: match r.byte()? {
                    0 => None,
                    _ => Some(r.nums()?),
                },
                steps: match r.byte()? {
                    0 => None,
                    _ => {
                        let n = r.len()?;
                        let mut steps = Vec::with_capacity(n.min(r.left()));
                        for _ in 0..n {
                            steps.push(r.f64s::<Vec<f64>>()?);
                        }
                        Some(steps)
                    }
                },
            }),
            2 => Body::Pair {
                chosen: r.f64()?,
                rejected: r.f64()?,
            },
            3 => Body::BestOfN {
                scores: r.f64s()?,
                num_correct: r.len()?,
            },
            4 => Body::Consistency(ConsistencyItem {
                sizes: (r.len()?, r.len()?),
                consistent_pairs: r.len()?,
                consistent: pick(r.byte()?, &[false, true])?,
            }),
            5 => Body::Graded {
                credit: r.f64()?,
                gold: r.string()?,
                answer: match r.byte()? {
                    0 => None,
                    _ => Some(r.string()?),
                },
            },
            _ => return Err(BadBlock("unknown item type")),
        };
        Ok(Item {
            id,
            line,
            group,
            tier,
            split,
            modality,
            body,
        })
    }

    fn option(&mut self, r: &mut Reader) -> Result<OptionItem, BadBlock> {
        let kind = *[OptionKind::Choice, OptionKind::Binary, OptionKind::Rating]
            .get(usize::from(r.byte()?))
            .ok_or(BadBlock("bad option kind"))?;
        let options = match r.byte()? {
            0 => Arc::clone(self.last.as_ref().ok_or(BadBlock("no option list yet"))?),
            _ => {
                let list: Arc<[String]> = r.strings()?.into();
                self.last = Some(Arc::clone(&list));
                list
            }
        };
        Ok(OptionItem {
            kind,
            options,
            gold: r.len()?,
            gold_probs: match r.byte()? {
                0 => None,
                _ => Some(r.f64s()?),
            },
            answer: r
                .opt_num()?
                .map(usize::try_from)
                .transpose()
                .map_err(|_| BadBlock("answer"))?,
            probs: match r.byte()? {
                0 => None,
                _ => Some(Probs {
                    p: r.f64s::<ShortVec>()?,
                    sum: r.f64()?,
                    outside: r.opt_f64()?,
                }),
            },
        })
    }
}

/// The address that numbers a shared group name.
fn address(name: &Arc<str>) -> usize {
    Arc::as_ptr(name) as *const u8 as usize
}

/// `None` for 0, else the `(code - 1)`th of `values`.
fn pick<T: Copy>(code: u8, values: &[T]) -> Result<Option<T>, BadBlock> {
    match code {
        0 => Ok(None),
        c => values
            .get(usize::from(c) - 1)
            .copied()
            .map(Some)
            .ok_or(BadBlock("bad code")),
    }
}

const METAS: [Meta; 5] = [
    Meta::Model,
    Meta::Benchmark,
    Meta::FormatVersion,
    Meta::Mapping,
    Meta::NotApplicable,
];

fn meta_code(key: Meta) -> u8 {
    METAS.iter().position(|&m| m == key).unwrap_or(0) as u8
}

fn meta_of(code: u8) -> Result<Meta, BadBlock> {
    METAS
        .get(usize::from(code))
        .copied()
        .ok_or(BadBlock("unknown meta"))
}

struct Writer<'a>(&'a mut Vec<u8>);

impl Writer<'_> {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    /// LEB128.
    fn num(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    /// 0 for none, else `n + 1`.
    fn opt_num(&mut self, n: Option<u64>) {
        self.num(n.map_or(0, |n| n + 1));
    }

    fn nums(&mut self, ns: &[usize]) {
        self.num(ns.len() as u64);
        for &n in ns {
            self.num(n as u64);
        }
    }

    fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_bits().to_le_bytes());
    }

    fn opt_f64(&mut self, x: Option<f64>) {
        match x {
            None => self.byte(0),
            Some(x) => {
                self.byte(1);
                self.f64(x);
            }
        }
    }

    fn f64s(&mut self, xs: &[f64]) {
        self.num(xs.len() as u64);
        for &x in xs {
            self.f64(x);
        }
    }

    fn opt_f64s(&mut self, xs: Option<&[f64]>) {
        match xs {
            None => self.byte(0),
            Some(xs) => {
                self.byte(1);
                self.f64s(xs);
            }
        }
    }

    fn str(&mut self, s: &str) {
        self.num(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn strs(&mut self, ss: &[String]) {
        self.num(ss.len() as u64);
        for s in ss {
            self.str(s);
        }
    }

    fn warning(&mut self, w: &Warning) {
        self.str(&w.file);
        self.opt_num(w.line);
        self.str(&w.reason);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

const SHORT: BadBlock = BadBlock("cut short");

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, BadBlock> {
        let b = *self.bytes.get(self.at).ok_or(SHORT)?;
        self.at += 1;
        Ok(b)
    }

    fn num(&mut self) -> Result<u64, BadBlock> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(BadBlock("number too long"))
    }

    /// A count or an index.
    fn len(&mut self) -> Result<usize, BadBlock> {
        usize::try_from(self.num()?).map_err(|_| BadBlock("number too large"))
    }

    fn opt_num(&mut self) -> Result<Option<u64>, BadBlock> {
        Ok(self.num()?.checked_sub(1))
    }

    fn nums(&mut self) -> Result<Vec<usize>, BadBlock> {
        let n = self.len()?;
        let mut out = Vec::with_capacity(n.min(self.left()));
        for _ in 0..n {
            out.push(self.len()?);
        }
        Ok(out)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], BadBlock> {
        let end = self.at.checked_add(n).ok_or(SHORT)?;
        let out = self.bytes.get(self.at..end).ok_or(SHORT)?;
        self.at = end;
        Ok(out)
    }

    fn f64(&mut self) -> Result<f64, BadBlock> {
        let bytes: [u8; 8] = self.take(8)?.try_into().map_err(|_| SHORT)?;
        Ok(f64::from_bits(u64::from_le_bytes(bytes)))
    }

    fn opt_f64(&mut self) -> Result<Option<f64>, BadBlock> {
        match self.byte()? {
            0 => Ok(None),
            _ => self.f64().map(Some),
        }
    }

    fn f64s<C: FromIterator<f64>>(&mut self) -> Result<C, BadBlock> {
        let n = self.len()?;
        let bytes = self.take(n.checked_mul(8).ok_or(SHORT)?)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| f64::from_bits(u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))))
            .collect())
    }

    fn str(&mut self) -> Result<&'a str, BadBlock> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(|_| BadBlock("text not UTF-8"))
    }

    fn string(&mut self) -> Result<String, BadBlock> {
        self.str().map(str::to_string)
    }

    fn strings(&mut self) -> Result<Vec<String>, BadBlock> {
        let n = self.len()?;
        let mut out = Vec::with_capacity(n.min(self.left()));
        for _ in 0..n {
            out.push(self.string()?);
        }
        Ok(out)
    }

    fn warning(&mut self) -> Result<Warning, BadBlock> {
        Ok(Warning {
            file: self.string()?,
            line: self.opt_num()?,
            reason: self.string()?,
        })
    }
}
